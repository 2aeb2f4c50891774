<?php
declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use Switchboard\RetryPolicy;

/** Pure parts of the retry policy: backoff bounds and Retry-After parsing. */
final class RetryPolicyTest extends TestCase
{
    public function testBackoffDoublesUpToTheCapWithFullJitter(): void
    {
        $policy = new RetryPolicy(baseDelay: 0.5, maxDelay: 3.0);
        $this->assertSame([0.5, 1.0, 2.0, 3.0, 3.0], array_map(fn (int $n): float => $policy->backoff($n, 1.0), [1, 2, 3, 4, 5]));
        $this->assertSame(0.0, $policy->backoff(3, 0.0));
    }

    public function testRetryAfterWinsAndIsClamped(): void
    {
        $policy = new RetryPolicy(maxRetryAfter: 10.0);
        $this->assertSame(2.0, $policy->delay(1, '2', 1.0));
        $this->assertSame(10.0, $policy->delay(1, '3600', 1.0));
        $this->assertSame(0.25, $policy->delay(1, null, 1.0));
    }

    public function testRetryAfterAsHttpDate(): void
    {
        $this->assertSame(30.0, RetryPolicy::parseRetryAfter('Thu, 01 Jan 1970 00:00:30 GMT', 0.0));
        $this->assertNull(RetryPolicy::parseRetryAfter('soon'));
    }

    public function testRetryableStatuses(): void
    {
        $this->assertTrue(RetryPolicy::isRetryableStatus(503, 'unavailable'));
        $this->assertTrue(RetryPolicy::isRetryableStatus(429, 'rate_limited'));
        $this->assertTrue(RetryPolicy::isRetryableStatus(409, 'idempotency_key_in_use'));
        $this->assertFalse(RetryPolicy::isRetryableStatus(409, 'conflict'));
        $this->assertFalse(RetryPolicy::isRetryableStatus(400, 'validation_failed'));
    }
}
