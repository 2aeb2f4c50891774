<?php
declare(strict_types=1);

namespace Switchboard;

/** The entry point: new Client($baseUrl, $apiKey), with one property per resource. */
final class Client
{
    public readonly Transport $transport;
    public readonly Messages $messages;
    public readonly Templates $templates;
    public readonly Inbound $inbound;
    public readonly Webhooks $webhooks;
    public readonly Calls $calls;
    public readonly Agents $agents;

    public function __construct(string $baseUrl, string $apiKey, ?RetryPolicy $retry = null, float $timeout = 30.0)
    {
        $this->transport = new Transport($baseUrl, $apiKey, $retry ?? new RetryPolicy(), $timeout);
        $this->messages = new Messages($this->transport);
        $this->templates = new Templates($this->transport);
        $this->inbound = new Inbound($this->transport);
        $this->webhooks = new Webhooks($this->transport);
        $this->calls = new Calls($this->transport);
        $this->agents = new Agents($this->transport);
    }
}
