<?php
declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use Switchboard\Webhook;
use Switchboard\WebhookVerificationException;

/** Standard Webhooks v1 verification against signatures computed independently of the SDK. */
final class WebhookVerifyTest extends TestCase
{
    private const BODY = '{"id":"evt_1","type":"message.delivered","data":{"id":"msg_1"}}';

    private static function secret(string $byte): string
    {
        return 'whsec_' . base64_encode(str_repeat($byte, 32));
    }

    private static function signature(string $secret, int $ts, string $body): string
    {
        return 'v1,' . base64_encode(hash_hmac('sha256', "evt_1.$ts.$body", base64_decode(substr($secret, 6)), true));
    }

    /** @return array<string, string> */
    private static function headers(string $secret, ?int $ts = null): array
    {
        $ts ??= time();
        return ['Webhook-Id' => 'evt_1', 'webhook-timestamp' => (string) $ts, 'webhook-signature' => self::signature($secret, $ts, self::BODY)];
    }

    public function testAValidDeliveryReturnsTheEvent(): void
    {
        $this->assertSame('message.delivered', Webhook::verify(self::BODY, self::headers(self::secret('k')), self::secret('k'))['type']);
    }

    public function testATamperedBodyFails(): void
    {
        $this->expectException(WebhookVerificationException::class);
        Webhook::verify(str_replace('msg_1', 'msg_2', self::BODY), self::headers(self::secret('k')), self::secret('k'));
    }

    public function testTheWrongSecretFails(): void
    {
        $this->expectException(WebhookVerificationException::class);
        Webhook::verify(self::BODY, self::headers(self::secret('o')), self::secret('k'));
    }

    public function testATimestampOlderThanFiveMinutesFails(): void
    {
        $this->expectException(WebhookVerificationException::class);
        Webhook::verify(self::BODY, self::headers(self::secret('k'), time() - 301), self::secret('k'));
    }

    public function testAnyOfSeveralSignaturesMatchesAfterARotation(): void
    {
        $headers = self::headers(self::secret('k'));
        $headers['webhook-signature'] = self::signature(self::secret('o'), (int) $headers['webhook-timestamp'], self::BODY) . ' ' . $headers['webhook-signature'];
        $this->assertSame('evt_1', Webhook::verify(self::BODY, $headers, self::secret('k'))['id']);
    }

    public function testAMissingHeaderFails(): void
    {
        $headers = self::headers(self::secret('k'));
        unset($headers['webhook-signature']);
        $this->expectException(WebhookVerificationException::class);
        Webhook::verify(self::BODY, $headers, self::secret('k'));
    }
}
