"""The SDK against a running stack, driven by e2e/sdk-python.test.ts, which passes the stack through the environment:
SWITCHBOARD_BASE_URL, SWITCHBOARD_API_KEY, SWITCHBOARD_PROXY_URL (the fault-injecting proxy in front of the gateway),
SWITCHBOARD_RECEIVER_URL and SWITCHBOARD_RECEIVER_LOG (a webhook receiver and the file it logs deliveries to),
SWITCHBOARD_CHAT_RECIPIENT (a customer whose chat window is open), SWITCHBOARD_VOICE_FROM (the account's voice
number). Sandbox numbers: docs/sandbox.md."""
import json
import os
import time
import unittest
import urllib.request
import uuid
from typing import Any, Callable, Dict, List, TypeVar

from switchboard import ApiError, RetryPolicy, Switchboard, WebhookVerificationError, webhooks

ENV = os.environ
T = TypeVar("T")


def eventually(read: Callable[[], T], done: Callable[[T], bool], what: str, timeout: float = 20.0) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last value {value!r}")
        time.sleep(0.2)


def recipient(ending: int) -> str:
    # Each test has its own customer on the fresh stack; endings 10..99 are delivered, then read (docs/sandbox.md).
    return f"+4479111234{ending:02d}"


def fault(status: int, count: int, forward: bool, retry_after: str = "") -> None:
    body = json.dumps({"status": status, "count": count, "forward": forward, "retry_after": retry_after}).encode()
    request = urllib.request.Request(ENV["SWITCHBOARD_PROXY_URL"] + "/__fault", data=body, method="PUT")
    urllib.request.urlopen(request).close()


def injected() -> int:
    with urllib.request.urlopen(ENV["SWITCHBOARD_PROXY_URL"] + "/__fault") as response:
        return int(json.loads(response.read())["injected"])


@unittest.skipUnless(ENV.get("SWITCHBOARD_BASE_URL"), "needs a running stack (e2e/sdk-python.test.ts)")
class LiveStackTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = Switchboard(ENV.get("SWITCHBOARD_BASE_URL", ""), ENV.get("SWITCHBOARD_API_KEY", ""))
        fast = RetryPolicy(max_attempts=4, base_delay=0.1, max_delay=1.0)
        self.proxied = Switchboard(ENV.get("SWITCHBOARD_PROXY_URL", ""), ENV.get("SWITCHBOARD_API_KEY", ""), retry=fast)

    def wait_status(self, message_id: str, *statuses: str) -> Dict[str, Any]:
        return dict(eventually(lambda: self.client.messages.get(message_id), lambda m: m["status"] in statuses, f"{message_id} in {statuses}"))

    def messages_to(self, customer: str) -> List[Dict[str, Any]]:
        return [dict(m) for m in self.client.messages.list(recipient=customer, limit=100)]

    def test_sends_on_every_channel_and_reads_the_status(self) -> None:
        chat = self.client.messages.send_chat({"to": ENV["SWITCHBOARD_CHAT_RECIPIENT"], "type": "text", "text": {"body": "chat from python"}})
        self.assertEqual(chat["channel"], "chat")
        sent = [chat] + [self.client.messages.send(channel, recipient(n), text=f"{channel} from python") for channel, n in (("sms", 10), ("rcs", 11), ("auto", 12))]
        self.assertEqual([m["status"] for m in sent], ["queued"] * 4)
        # auto to a customer without an open chat window skips chat and goes out on rcs (docs/chat.md).
        for message, channel in zip(sent, ("chat", "sms", "rcs", "rcs")):
            final = self.wait_status(message["id"], "delivered", "read")
            self.assertEqual((final["channel"], final["channel_used"]), (message["channel"], channel))
            self.assertIn("delivered", [e["status"] for e in self.client.messages.events(message["id"])])

    def test_a_503_after_the_gateway_accepted_is_replayed_not_duplicated(self) -> None:
        customer = recipient(13)
        before = injected()
        fault(503, 1, forward=True)
        message = self.proxied.messages.send("sms", customer, text="through a 503")
        self.assertEqual(injected(), before + 1)
        self.wait_status(message["id"], "delivered")
        self.assertEqual([m["id"] for m in self.messages_to(customer)], [message["id"]])

    def test_a_429_with_retry_after_is_retried_once_accepted(self) -> None:
        customer = recipient(14)
        before = injected()
        fault(429, 1, forward=False, retry_after="1")
        message = self.proxied.messages.send("sms", customer, text="through a 429")
        self.assertEqual(injected(), before + 1)
        self.wait_status(message["id"], "delivered")
        self.assertEqual([m["id"] for m in self.messages_to(customer)], [message["id"]])

    def test_the_same_idempotency_key_never_makes_two_messages(self) -> None:
        customer, key = recipient(15), str(uuid.uuid4())
        first = self.client.messages.send("sms", customer, text="once", idempotency_key=key)
        second = self.client.messages.send("sms", customer, text="once", idempotency_key=key)
        self.assertEqual(first["id"], second["id"])

    def test_the_list_iterator_walks_every_page(self) -> None:
        customer = recipient(16)
        ids = {self.client.messages.send("sms", customer, text=f"page {n}")["id"] for n in range(25)}
        listed = eventually(
            lambda: [m["id"] for m in self.client.messages.list(recipient=customer, limit=10)],
            lambda got: len(got) >= 25, "25 listed messages")
        self.assertEqual(len(listed), 25)
        self.assertEqual(set(listed), ids)
        first_page = self.client.messages.list_page(recipient=customer, limit=10)
        self.assertEqual(len(first_page["data"]), 10)
        self.assertIsNotNone(first_page["next_cursor"])

    def test_a_send_in_the_bulk_lane_reads_and_lists_by_its_lane(self) -> None:
        customer = recipient(18)
        message = self.client.messages.send("sms", customer, text="newsletter", traffic_class="bulk")
        self.assertEqual(self.client.messages.get(message["id"])["traffic_class"], "bulk")
        # A message is listed once the dispatcher has stored it (docs/api.md).
        listed = eventually(
            lambda: [m["id"] for m in self.client.messages.list(recipient=customer, traffic_class="bulk")],
            lambda got: len(got) >= 1, "the bulk message listed")
        self.assertEqual(listed, [message["id"]])
        self.assertEqual(list(self.client.messages.list(recipient=customer, traffic_class="transactional")), [])

    def test_an_invalid_request_raises_the_problem_fields(self) -> None:
        with self.assertRaises(ApiError) as caught:
            self.client.messages.send("sms", "not-a-number", text="x")
        error = caught.exception
        self.assertEqual((error.status, error.code, error.type), (400, "validation_failed", "/errors/validation_failed"))
        self.assertIn("/recipient", [e["field"] for e in error.errors])
        self.assertTrue(error.request_id)
        self.assertTrue(error.title)

    def test_a_real_webhook_delivery_verifies_and_a_tampered_one_does_not(self) -> None:
        path = f"/sdk-python/{uuid.uuid4()}"
        endpoint = self.client.webhooks.create(ENV["SWITCHBOARD_RECEIVER_URL"] + path, ["message.delivered"])
        self.assertTrue(endpoint["secret"].startswith("whsec_"))
        self.assertIn(endpoint["id"], [e["id"] for e in self.client.webhooks.list()])
        message = self.client.messages.send("sms", recipient(17), text="hook me")

        def deliveries() -> List[Dict[str, Any]]:
            if not os.path.exists(ENV["SWITCHBOARD_RECEIVER_LOG"]):
                return []
            with open(ENV["SWITCHBOARD_RECEIVER_LOG"], encoding="utf-8") as log:
                lines = [json.loads(line) for line in log if line.strip()]
            # The endpoint hears every message of the account: keep the deliveries about this one.
            return [d for d in lines if d["path"] == path and json.loads(d["body"])["data"]["id"] == message["id"]]

        delivery = eventually(deliveries, lambda d: len(d) > 0, "a delivery to the receiver")[0]
        event = webhooks.verify(delivery["body"].encode("utf-8"), delivery["headers"], endpoint["secret"])
        self.assertEqual((event["type"], event["data"]["id"]), ("message.delivered", message["id"]))
        self.assertEqual(self.client.webhooks.verify(delivery["body"], delivery["headers"], endpoint["secret"])["id"], event["id"])
        with self.assertRaises(WebhookVerificationError):
            webhooks.verify(delivery["body"].replace(message["id"], "msg_tampered"), delivery["headers"], endpoint["secret"])
        self.assertIn(event["id"], [d["event_id"] for d in self.client.webhooks.deliveries(endpoint["id"])])
        self.assertEqual(self.client.webhooks.event(event["id"])["type"], "message.delivered")
        # After a rotation the redelivered event carries both signatures; the new secret alone verifies it.
        rotated = self.client.webhooks.rotate_secret(endpoint["id"])
        self.assertNotEqual(rotated["secret"], endpoint["secret"])
        self.client.webhooks.redeliver(event["id"])
        again = eventually(deliveries, lambda d: len(d) > 1, "the redelivery")[1]
        self.assertEqual(webhooks.verify(again["body"], again["headers"], rotated["secret"])["id"], event["id"])
        self.assertTrue(self.client.webhooks.account_secret().startswith("whsec_"))
        self.client.webhooks.delete(endpoint["id"])

    def test_an_agent_with_a_broken_flow_raises_its_pointers_and_a_valid_one_round_trips(self) -> None:
        with self.assertRaises(ApiError) as refused:
            self.client.agents.create("broken", {"start": "a", "nodes": {"a": {"type": "say", "text": "hi", "next": "nowhere"}, "b": {"type": "hangup"}}})
        self.assertEqual(refused.exception.status, 400)
        self.assertIn("/flow/nodes/a/next", [e["field"] for e in refused.exception.errors])
        agent = self.client.agents.create("python sdk", {"start": "bye", "nodes": {"bye": {"type": "hangup"}}})
        self.assertTrue(agent["id"].startswith("agt_"))
        self.assertIn(agent["id"], [a["id"] for a in self.client.agents.list()])
        self.client.agents.replace(agent["id"], "python sdk 2", agent["flow"])
        self.assertEqual(self.client.agents.get(agent["id"])["name"], "python sdk 2")
        self.client.agents.delete(agent["id"])
        with self.assertRaises(ApiError) as gone:
            self.client.agents.get(agent["id"])
        self.assertEqual(gone.exception.status, 404)

    def test_a_call_run_by_an_agent_ends_with_its_transcript_and_a_wav_recording(self) -> None:
        flow = {
            "start": "menu",
            "nodes": {
                "menu": {"type": "gather", "input": "dtmf", "prompt": "Press 1 to continue.", "max_digits": 1, "timeout_seconds": 8, "save_as": "choice",
                         "branches": [{"match": "1", "next": "thanks"}], "no_input": "bye", "no_match": "bye"},
                "thanks": {"type": "say", "text": "Thank you.", "next": "bye"},
                "bye": {"type": "hangup"},
            },
        }
        agent = self.client.agents.create("python sdk ivr", flow)
        # Numbers ending in 00 answer and press 1 after each prompt (docs/voice.md#carrier-simulator).
        created = self.client.calls.create("+447911123400", ENV["SWITCHBOARD_VOICE_FROM"], agent_id=agent["id"], record=True)
        self.assertEqual(created["status"], "ringing")
        call_id = created["call_id"]
        ended = eventually(lambda: self.client.calls.get(call_id), lambda c: c["status"] not in ("ringing", "in-progress"), f"{call_id} to end", 90.0)
        self.assertEqual(ended["status"], "completed")
        lines = [f"{t['speaker']}: {t['text']}" for t in self.client.calls.transcript(call_id)]
        self.assertEqual(lines, ["agent: Press 1 to continue.", "callee: DTMF: 1", "agent: Thank you."])
        self.assertIn(call_id, [c["call_id"] for c in self.client.calls.list(agent_id=agent["id"])])
        eventually(lambda: self.client.calls.get(call_id), lambda c: c["recording"] is not None, "the recording", 60.0)
        wav = self.client.calls.recording(call_id)
        self.assertIsInstance(wav, bytes)
        self.assertEqual(wav[0:4], b"RIFF")
        self.assertEqual(int.from_bytes(wav[22:24], "little"), 2)
        self.assertGreater(len(wav), 44 + 8000 * 4)
        with self.assertRaises(ApiError) as missing:
            self.client.calls.recording("call_nope")
        self.assertEqual(missing.exception.status, 404)


if __name__ == "__main__":
    unittest.main()
