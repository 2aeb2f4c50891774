<?php
declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use Switchboard\ApiException;
use Switchboard\Client;
use Switchboard\RetryPolicy;
use Switchboard\Uuid;
use Switchboard\Webhook;
use Switchboard\WebhookVerificationException;

/**
 * The SDK against a running stack, driven by e2e/sdk-php.test.ts, which passes the stack through the environment:
 * SWITCHBOARD_BASE_URL, SWITCHBOARD_API_KEY, SWITCHBOARD_PROXY_URL (the fault-injecting proxy in front of the
 * gateway), SWITCHBOARD_RECEIVER_URL and SWITCHBOARD_RECEIVER_LOG (a webhook receiver and the file it logs
 * deliveries to), SWITCHBOARD_CHAT_RECIPIENT (a customer whose chat window is open), SWITCHBOARD_VOICE_FROM (the account's voice
 * number). Sandbox numbers: docs/sandbox.md.
 */
final class LiveStackTest extends TestCase
{
    private Client $client;
    private Client $proxied;

    protected function setUp(): void
    {
        if (!getenv('SWITCHBOARD_BASE_URL')) {
            $this->markTestSkipped('needs a running stack (e2e/sdk-php.test.ts)');
        }
        $this->client = new Client(getenv('SWITCHBOARD_BASE_URL'), getenv('SWITCHBOARD_API_KEY'));
        $fast = new RetryPolicy(maxAttempts: 4, baseDelay: 0.1, maxDelay: 1.0);
        $this->proxied = new Client(getenv('SWITCHBOARD_PROXY_URL'), getenv('SWITCHBOARD_API_KEY'), $fast);
    }

    /** Each test has its own customer on the fresh stack; endings 10..99 are delivered, then read. */
    private static function recipient(int $ending): string
    {
        return sprintf('+4479111234%02d', $ending);
    }

    private static function eventually(callable $read, callable $done, string $what, float $timeout = 20.0): mixed
    {
        $deadline = microtime(true) + $timeout;
        while (true) {
            $value = $read();
            if ($done($value)) {
                return $value;
            }
            if (microtime(true) > $deadline) {
                throw new RuntimeException("timed out waiting for $what; last value " . json_encode($value));
            }
            usleep(200_000);
        }
    }

    /** @return array<string, mixed> */
    private function waitStatus(string $id, string ...$statuses): array
    {
        return self::eventually(fn () => $this->client->messages->get($id), fn (array $m) => in_array($m['status'], $statuses, true), "$id in " . implode(',', $statuses));
    }

    /** @return list<string> */
    private function idsTo(string $customer, int $limit = 100): array
    {
        return array_map(fn (array $m) => $m['id'], iterator_to_array($this->client->messages->list(['recipient' => $customer, 'limit' => $limit]), false));
    }

    private static function fault(int $status, int $count, bool $forward, string $retryAfter = ''): void
    {
        $body = json_encode(['status' => $status, 'count' => $count, 'forward' => $forward, 'retry_after' => $retryAfter]);
        file_get_contents(getenv('SWITCHBOARD_PROXY_URL') . '/__fault', false, stream_context_create(['http' => ['method' => 'PUT', 'header' => 'Content-Type: application/json', 'content' => $body]]));
    }

    private static function injected(): int
    {
        return (int) json_decode((string) file_get_contents(getenv('SWITCHBOARD_PROXY_URL') . '/__fault'), true)['injected'];
    }

    public function testSendsOnEveryChannelAndReadsTheStatus(): void
    {
        $sent = [$this->client->messages->sendChat(['to' => getenv('SWITCHBOARD_CHAT_RECIPIENT'), 'type' => 'text', 'text' => ['body' => 'chat from php']])];
        foreach ([['sms', 20], ['rcs', 21], ['auto', 22]] as [$channel, $n]) {
            $sent[] = $this->client->messages->send(['channel' => $channel, 'recipient' => self::recipient($n), 'content' => ['text' => "$channel from php"]]);
        }
        $this->assertSame(['queued', 'queued', 'queued', 'queued'], array_column($sent, 'status'));
        // auto to a customer without an open chat window skips chat and goes out on rcs (docs/chat.md).
        foreach (array_map(null, $sent, ['chat', 'sms', 'rcs', 'rcs']) as [$message, $channel]) {
            $final = $this->waitStatus($message['id'], 'delivered', 'read');
            $this->assertSame([$message['channel'], $channel], [$final['channel'], $final['channel_used']]);
            $this->assertContains('delivered', array_column($this->client->messages->events($message['id']), 'status'));
        }
    }

    public function testA503AfterTheGatewayAcceptedIsReplayedNotDuplicated(): void
    {
        $before = self::injected();
        self::fault(503, 1, true);
        $message = $this->proxied->messages->send(['channel' => 'sms', 'recipient' => self::recipient(23), 'content' => ['text' => 'through a 503']]);
        $this->assertSame($before + 1, self::injected());
        $this->waitStatus($message['id'], 'delivered');
        $this->assertSame([$message['id']], $this->idsTo(self::recipient(23)));
    }

    public function testA429WithRetryAfterIsRetriedOnceAccepted(): void
    {
        $before = self::injected();
        self::fault(429, 1, false, '1');
        $message = $this->proxied->messages->send(['channel' => 'sms', 'recipient' => self::recipient(24), 'content' => ['text' => 'through a 429']]);
        $this->assertSame($before + 1, self::injected());
        $this->waitStatus($message['id'], 'delivered');
        $this->assertSame([$message['id']], $this->idsTo(self::recipient(24)));
    }

    public function testTheSameIdempotencyKeyNeverMakesTwoMessages(): void
    {
        $key = Uuid::v4();
        $body = ['channel' => 'sms', 'recipient' => self::recipient(25), 'content' => ['text' => 'once']];
        $this->assertSame($this->client->messages->send($body, $key)['id'], $this->client->messages->send($body, $key)['id']);
    }

    public function testTheListGeneratorWalksEveryPage(): void
    {
        $ids = [];
        for ($n = 0; $n < 25; $n++) {
            $ids[] = $this->client->messages->send(['channel' => 'sms', 'recipient' => self::recipient(26), 'content' => ['text' => "page $n"]])['id'];
        }
        $listed = self::eventually(fn () => $this->idsTo(self::recipient(26), 10), fn (array $got) => count($got) >= 25, '25 listed messages');
        sort($ids);
        sort($listed);
        $this->assertSame($ids, $listed);
        $page = $this->client->messages->listPage(['recipient' => self::recipient(26), 'limit' => 10]);
        $this->assertCount(10, $page['data']);
        $this->assertNotNull($page['next_cursor']);
    }

    public function testASendInTheBulkLaneReadsAndListsByItsLane(): void
    {
        $message = $this->client->messages->send(['channel' => 'sms', 'recipient' => self::recipient(28), 'content' => ['text' => 'newsletter'], 'traffic_class' => 'bulk']);
        $this->assertSame('bulk', $this->client->messages->get($message['id'])['traffic_class']);
        // A message is listed once the dispatcher has stored it (docs/api.md).
        $bulk = self::eventually(
            fn () => array_column($this->client->messages->listPage(['recipient' => self::recipient(28), 'traffic_class' => 'bulk'])['data'], 'id'),
            fn (array $got) => count($got) >= 1,
            'the bulk message listed',
        );
        $this->assertSame([$message['id']], $bulk);
        $this->assertSame([], $this->client->messages->listPage(['recipient' => self::recipient(28), 'traffic_class' => 'transactional'])['data']);
    }

    public function testAnInvalidRequestThrowsTheProblemFields(): void
    {
        try {
            $this->client->messages->send(['channel' => 'sms', 'recipient' => 'not-a-number', 'content' => ['text' => 'x']]);
            $this->fail('no exception');
        } catch (ApiException $error) {
            $this->assertSame([400, 'validation_failed', '/errors/validation_failed'], [$error->status, $error->problemCode, $error->type]);
            $this->assertContains('/recipient', array_column($error->errors, 'field'));
            $this->assertNotEmpty($error->requestId);
            $this->assertNotEmpty($error->title);
        }
    }

    public function testARealWebhookDeliveryVerifiesAndATamperedOneDoesNot(): void
    {
        $path = '/sdk-php/' . Uuid::v4();
        $endpoint = $this->client->webhooks->create(getenv('SWITCHBOARD_RECEIVER_URL') . $path, ['message.delivered']);
        $this->assertStringStartsWith('whsec_', $endpoint['secret']);
        $this->assertContains($endpoint['id'], array_column($this->client->webhooks->list(), 'id'));
        $message = $this->client->messages->send(['channel' => 'sms', 'recipient' => self::recipient(27), 'content' => ['text' => 'hook me']]);
        $log = getenv('SWITCHBOARD_RECEIVER_LOG');
        $deliveries = fn (): array => !is_file($log) ? [] : array_values(array_filter(
            array_map(fn (string $line) => json_decode($line, true), file($log, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES)),
            // The endpoint hears every message of the account: keep the deliveries about this one.
            fn (array $d) => $d['path'] === $path && json_decode($d['body'], true)['data']['id'] === $message['id'],
        ));
        $delivery = self::eventually($deliveries, fn (array $d) => count($d) > 0, 'a delivery to the receiver')[0];
        $event = Webhook::verify($delivery['body'], $delivery['headers'], $endpoint['secret']);
        $this->assertSame(['message.delivered', $message['id']], [$event['type'], $event['data']['id']]);
        $this->assertSame($event['id'], $this->client->webhooks->verify($delivery['body'], $delivery['headers'], $endpoint['secret'])['id']);
        try {
            Webhook::verify(str_replace($message['id'], 'msg_tampered', $delivery['body']), $delivery['headers'], $endpoint['secret']);
            $this->fail('a tampered body verified');
        } catch (WebhookVerificationException) {
            $this->addToAssertionCount(1);
        }
        $this->assertContains($event['id'], array_column($this->client->webhooks->deliveries($endpoint['id']), 'event_id'));
        $this->assertSame('message.delivered', $this->client->webhooks->event($event['id'])['type']);
        // After a rotation the redelivered event carries both signatures; the new secret alone verifies it.
        $rotated = $this->client->webhooks->rotateSecret($endpoint['id']);
        $this->assertNotSame($endpoint['secret'], $rotated['secret']);
        $this->client->webhooks->redeliver($event['id']);
        $again = self::eventually($deliveries, fn (array $d) => count($d) > 1, 'the redelivery')[1];
        $this->assertSame($event['id'], Webhook::verify($again['body'], $again['headers'], $rotated['secret'])['id']);
        $this->assertStringStartsWith('whsec_', $this->client->webhooks->accountSecret());
        $this->client->webhooks->delete($endpoint['id']);
    }

    public function testAnAgentWithABrokenFlowThrowsItsPointersAndAValidOneRoundTrips(): void
    {
        try {
            $this->client->agents->create(['name' => 'broken', 'flow' => ['start' => 'a', 'nodes' => ['a' => ['type' => 'say', 'text' => 'hi', 'next' => 'nowhere'], 'b' => ['type' => 'hangup']]]]);
            $this->fail('a broken flow was accepted');
        } catch (ApiException $refused) {
            $this->assertSame(400, $refused->status);
            $this->assertContains('/flow/nodes/a/next', array_column($refused->errors, 'field'));
        }
        $agent = $this->client->agents->create(['name' => 'php sdk', 'flow' => ['start' => 'bye', 'nodes' => ['bye' => ['type' => 'hangup']]]]);
        $this->assertStringStartsWith('agt_', $agent['id']);
        $this->assertContains($agent['id'], array_column(iterator_to_array($this->client->agents->list(), false), 'id'));
        $this->client->agents->replace($agent['id'], ['name' => 'php sdk 2', 'flow' => $agent['flow']]);
        $this->assertSame('php sdk 2', $this->client->agents->get($agent['id'])['name']);
        $this->client->agents->delete($agent['id']);
        try {
            $this->client->agents->get($agent['id']);
            $this->fail('a deleted agent was found');
        } catch (ApiException $gone) {
            $this->assertSame(404, $gone->status);
        }
    }

    public function testACallRunByAnAgentEndsWithItsTranscriptAndAWavRecording(): void
    {
        $agent = $this->client->agents->create(['name' => 'php sdk ivr', 'flow' => [
            'start' => 'menu',
            'nodes' => [
                'menu' => ['type' => 'gather', 'input' => 'dtmf', 'prompt' => 'Press 1 to continue.', 'max_digits' => 1, 'timeout_seconds' => 8, 'save_as' => 'choice',
                    'branches' => [['match' => '1', 'next' => 'thanks']], 'no_input' => 'bye', 'no_match' => 'bye'],
                'thanks' => ['type' => 'say', 'text' => 'Thank you.', 'next' => 'bye'],
                'bye' => ['type' => 'hangup'],
            ],
        ]]);
        // Numbers ending in 00 answer and press 1 after each prompt (docs/voice.md#carrier-simulator).
        $created = $this->client->calls->create(['to' => '+447911123400', 'from' => getenv('SWITCHBOARD_VOICE_FROM'), 'agent_id' => $agent['id'], 'record' => true]);
        $this->assertSame('ringing', $created['status']);
        $id = $created['call_id'];
        $ended = self::eventually(fn () => $this->client->calls->get($id), fn (array $c) => !in_array($c['status'], ['ringing', 'in-progress'], true), "$id to end", 90.0);
        $this->assertSame('completed', $ended['status']);
        $lines = array_map(static fn (array $t): string => "{$t['speaker']}: {$t['text']}", $this->client->calls->transcript($id));
        $this->assertSame(['agent: Press 1 to continue.', 'callee: DTMF: 1', 'agent: Thank you.'], $lines);
        $this->assertContains($id, array_column(iterator_to_array($this->client->calls->list(['agent_id' => $agent['id']]), false), 'call_id'));
        self::eventually(fn () => $this->client->calls->get($id), fn (array $c) => $c['recording'] !== null, 'the recording', 60.0);
        $wav = $this->client->calls->recording($id);
        $this->assertSame('RIFF', substr($wav, 0, 4));
        $this->assertSame(2, unpack('v', $wav, 22)[1]);
        $this->assertGreaterThan(44 + 8000 * 4, strlen($wav));
        try {
            $this->client->calls->recording('call_nope');
            $this->fail('a recording of an unknown call was served');
        } catch (ApiException $missing) {
            $this->assertSame(404, $missing->status);
        }
    }
}
