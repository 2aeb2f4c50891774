import { buildOpenApiDocument, createOpenApiResponseValidator } from '@switchboard/schemas';

/*
 * Every answer the e2e helpers get from the gateway is held to the OpenAPI document (docs/api.md#the-openapi-document):
 * a status, content type or field the document does not describe fails the test that met it.
 */
const check = createOpenApiResponseValidator(buildOpenApiDocument());

/** Throws when `body` (parsed JSON, text, or null for none) is not what the document says `method path` answers with `status`. */
export function assertDocumentedResponse(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  const { problems } = check(method.toUpperCase(), path, status, contentType, body === null ? undefined : body);
  if (problems.length > 0)
    throw new Error(`the answer is not what the OpenAPI document describes:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(body)?.slice(0, 2000)}`);
}
