"""Pure parts of the retry policy: backoff bounds and Retry-After parsing."""
import unittest

from switchboard.retry import RetryPolicy, is_retryable_status, parse_retry_after


class RetryPolicyTest(unittest.TestCase):
    def test_backoff_doubles_up_to_the_cap_with_full_jitter(self) -> None:
        policy = RetryPolicy(base_delay=0.5, max_delay=3.0)
        self.assertEqual([policy.backoff(n, lambda: 1.0) for n in (1, 2, 3, 4, 5)], [0.5, 1.0, 2.0, 3.0, 3.0])
        self.assertEqual(policy.backoff(3, lambda: 0.0), 0.0)

    def test_retry_after_wins_and_is_clamped(self) -> None:
        policy = RetryPolicy(max_retry_after=10.0)
        self.assertEqual(policy.delay(1, "2", lambda: 1.0), 2.0)
        self.assertEqual(policy.delay(1, "3600", lambda: 1.0), 10.0)
        self.assertEqual(policy.delay(1, None, lambda: 1.0), 0.25)

    def test_retry_after_as_http_date(self) -> None:
        self.assertEqual(parse_retry_after("Thu, 01 Jan 1970 00:00:30 GMT", now=lambda: 0.0), 30.0)
        self.assertIsNone(parse_retry_after("soon"))

    def test_retryable_statuses(self) -> None:
        self.assertTrue(is_retryable_status(503, "unavailable"))
        self.assertTrue(is_retryable_status(429, "rate_limited"))
        self.assertTrue(is_retryable_status(409, "idempotency_key_in_use"))
        self.assertFalse(is_retryable_status(409, "conflict"))
        self.assertFalse(is_retryable_status(400, "validation_failed"))


if __name__ == "__main__":
    unittest.main()
