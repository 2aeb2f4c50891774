<?php
declare(strict_types=1);

namespace Switchboard;

/** Standard Webhooks v1 signature verification (see docs/webhooks.md, "Verifying deliveries"). */
final class Webhook
{
    public const TOLERANCE_SECONDS = 300;

    /**
     * Returns the parsed event when a v1 signature matches and the timestamp is within 5 minutes; throws otherwise.
     * $payload must be the raw body as received, before any json_decode.
     *
     * @param array<string, string|list<string>> $headers any case
     * @return array<string, mixed>
     */
    public static function verify(string $payload, array $headers, string $secret, ?int $now = null): array
    {
        $headers = array_change_key_case($headers, CASE_LOWER);
        $id = self::header($headers, 'webhook-id');
        $timestamp = self::header($headers, 'webhook-timestamp');
        $signatures = self::header($headers, 'webhook-signature');
        if (!ctype_digit($timestamp)) {
            throw new WebhookVerificationException('webhook-timestamp is not an integer');
        }
        if (abs(($now ?? time()) - (int) $timestamp) > self::TOLERANCE_SECONDS) {
            throw new WebhookVerificationException('webhook-timestamp is more than 5 minutes away');
        }
        $expected = self::sign($secret, $id, (int) $timestamp, $payload);
        // After a secret rotation the header carries several space-separated signatures: any one is enough.
        $matched = false;
        foreach (explode(' ', $signatures) as $candidate) {
            if (str_starts_with($candidate, 'v1,') && hash_equals($expected, $candidate)) {
                $matched = true;
            }
        }
        if (!$matched) {
            throw new WebhookVerificationException('no v1 signature matches');
        }
        return json_decode($payload, true, 512, JSON_THROW_ON_ERROR);
    }

    /** The `v1,<base64>` signature of one delivery: what the sender puts in webhook-signature. */
    public static function sign(string $secret, string $id, int $timestamp, string $payload): string
    {
        $key = base64_decode(str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret, true);
        if ($key === false) {
            throw new WebhookVerificationException('the secret is not whsec_ followed by base64');
        }
        return 'v1,' . base64_encode(hash_hmac('sha256', "$id.$timestamp.$payload", $key, true));
    }

    /** @param array<string, string|list<string>> $headers */
    private static function header(array $headers, string $name): string
    {
        $value = $headers[$name] ?? null;
        if (is_array($value)) {
            $value = implode(' ', $value);
        }
        if ($value === null || $value === '') {
            throw new WebhookVerificationException("missing header $name");
        }
        return $value;
    }
}
