import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { faultModeOf } from '../llm/chat-completions.rules';
import type { Logger } from '../support/json-logger';
import { sendOpenAiError } from './openai-errors';
import { renderSpeech, transcribe } from './sim-speech.engines';
import { MAX_UPLOAD_BYTES, parseSpeechRequest, parseTranscriptionRequest } from './transcription-request.parser';

/** The chat stand-in's fault modes by model name (`sim-fault-429`, `sim-fault-500`, `sim-slow`); true when answered. */
async function answeredByFault(model: string, res: Response): Promise<boolean> {
  const fault = faultModeOf(model);
  if (fault?.kind === 'status') {
    sendOpenAiError(res, fault.status, `simulated ${fault.status}`);
    return true;
  }
  if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  return false;
}

/**
 * OpenAI-compatible `POST /v1/audio/speech` and `POST /v1/audio/transcriptions` for the voice orchestrator's remote
 * speech providers in tests and demos (docs/sandbox.md#speech-stand-ins): flite speaks, pocketsphinx listens with a
 * grammar of the prompt's words, so the answers are the same on every run.
 */
export function createAudioApiRouter(deps: { logger: Logger }): Router {
  const router = Router();
  const failed = (res: Response, what: string, error: unknown) => {
    deps.logger.error(`${what} failed`, { error: String(error) });
    if (!res.headersSent) sendOpenAiError(res, 500, `${what} failed`);
  };

  router.post('/v1/audio/speech', express.json({ limit: '64kb' }), async (req: Request, res: Response) => {
    const parsed = parseSpeechRequest(req.body);
    if (!parsed.ok) return sendOpenAiError(res, 400, parsed.message, parsed.param);
    if (await answeredByFault(parsed.value.model, res)) return;
    try {
      const audio = await renderSpeech(parsed.value.input, parsed.value.voice, parsed.value.format);
      res
        .status(200)
        .setHeader('content-type', parsed.value.format === 'wav' ? 'audio/wav' : 'audio/pcm')
        .end(audio);
    } catch (error) {
      failed(res, 'speech rendering', error);
    }
  });

  router.post('/v1/audio/transcriptions', express.raw({ type: () => true, limit: MAX_UPLOAD_BYTES }), async (req: Request, res: Response) => {
    const parsed = await parseTranscriptionRequest(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.headers['content-type']);
    if (!parsed.ok) return sendOpenAiError(res, 400, parsed.message, parsed.param);
    if (await answeredByFault(parsed.value.model, res)) return;
    let text: string;
    try {
      text = await transcribe(parsed.value.file, parsed.value.prompt);
    } catch (error) {
      // sox refuses a file that is no WAV: the caller's fault, as OpenAI answers it; sox's own words stay in the log.
      deps.logger.warn('transcription upload not decodable', { error: String(error).slice(0, 300) });
      return sendOpenAiError(res, 400, 'the uploaded file could not be decoded as WAV audio', 'file');
    }
    if (parsed.value.responseFormat === 'text') return void res.status(200).type('text/plain').send(text);
    res.status(200).json(parsed.value.responseFormat === 'verbose_json' ? { task: 'transcribe', language: 'english', text } : { text });
  });
  // A body that is not JSON, or too large, is the caller's fault: OpenAI's 400 (or 413), never a 500.
  const bodyErrors: ErrorRequestHandler = (err: { status?: number; message?: string }, _req, res, next) => {
    if (res.headersSent) return next(err);
    const status = err.status === 413 ? 413 : 400;
    sendOpenAiError(res, status, status === 413 ? 'the request body is too large' : 'the request body could not be parsed');
  };
  router.use(bodyErrors);
  return router;
}
