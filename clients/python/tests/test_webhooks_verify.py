"""Standard Webhooks v1 verification against signatures computed independently of the SDK."""
import base64
import hashlib
import hmac
import time
import unittest

from switchboard import WebhookVerificationError, verify

SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()
OTHER = "whsec_" + base64.b64encode(b"o" * 32).decode()
BODY = '{"id":"evt_1","type":"message.delivered","data":{"id":"msg_1"}}'


def signature(secret: str, msg_id: str, ts: int, body: str) -> str:
    key = base64.b64decode(secret[len("whsec_"):])
    mac = hmac.new(key, f"{msg_id}.{ts}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def headers(secret: str = SECRET, ts: int = 0, body: str = BODY) -> dict:
    ts = ts or int(time.time())
    return {"Webhook-Id": "evt_1", "webhook-timestamp": str(ts), "webhook-signature": signature(secret, "evt_1", ts, body)}


class VerifyTest(unittest.TestCase):
    def test_a_valid_delivery_returns_the_event(self) -> None:
        self.assertEqual(verify(BODY.encode(), headers(), SECRET)["type"], "message.delivered")

    def test_a_tampered_body_fails(self) -> None:
        with self.assertRaises(WebhookVerificationError):
            verify(BODY.replace("msg_1", "msg_2"), headers(), SECRET)

    def test_the_wrong_secret_fails(self) -> None:
        with self.assertRaises(WebhookVerificationError):
            verify(BODY, headers(OTHER), SECRET)

    def test_a_timestamp_older_than_five_minutes_fails(self) -> None:
        with self.assertRaises(WebhookVerificationError):
            verify(BODY, headers(ts=int(time.time()) - 301), SECRET)

    def test_any_of_several_signatures_matches_after_a_rotation(self) -> None:
        h = headers()
        h["webhook-signature"] = signature(OTHER, "evt_1", int(h["webhook-timestamp"]), BODY) + " " + h["webhook-signature"]
        self.assertEqual(verify(BODY, h, SECRET)["id"], "evt_1")

    def test_a_missing_header_fails(self) -> None:
        h = headers()
        del h["webhook-signature"]
        with self.assertRaises(WebhookVerificationError):
            verify(BODY, h, SECRET)


if __name__ == "__main__":
    unittest.main()
