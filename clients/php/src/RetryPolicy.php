<?php
declare(strict_types=1);

namespace Switchboard;

/** When and how long to wait before retrying: exponential backoff with full jitter, Retry-After first. */
final class RetryPolicy
{
    private const RETRYABLE = [408, 429, 500, 502, 503, 504];

    /** $maxAttempts counts the first try; delays are in seconds. */
    public function __construct(
        public readonly int $maxAttempts = 4,
        public readonly float $baseDelay = 0.25,
        public readonly float $maxDelay = 8.0,
        public readonly float $maxRetryAfter = 60.0,
    ) {
    }

    /** Delay before retry $retryNumber (1-based): uniform in [0, min(maxDelay, base * 2^(n-1))]. */
    public function backoff(int $retryNumber, ?float $random = null): float
    {
        $ceiling = min($this->maxDelay, $this->baseDelay * (2 ** ($retryNumber - 1)));
        return $ceiling * ($random ?? mt_rand() / mt_getrandmax());
    }

    public function delay(int $retryNumber, ?string $retryAfter, ?float $random = null): float
    {
        $asked = self::parseRetryAfter($retryAfter);
        return $asked !== null ? min($asked, $this->maxRetryAfter) : $this->backoff($retryNumber, $random);
    }

    /** Seconds from a Retry-After header, given as seconds or as an HTTP date; null when absent or unreadable. */
    public static function parseRetryAfter(?string $value, ?float $now = null): ?float
    {
        $value = trim((string) $value);
        if ($value === '') {
            return null;
        }
        if (ctype_digit($value)) {
            return (float) $value;
        }
        $at = strtotime($value);
        return $at === false ? null : max(0.0, $at - ($now ?? microtime(true)));
    }

    public static function isRetryableStatus(int $status, ?string $code): bool
    {
        // 409 is retried only while the first request with the same Idempotency-Key is still running.
        if ($status === 409) {
            return $code === 'idempotency_key_in_use';
        }
        return in_array($status, self::RETRYABLE, true);
    }
}
