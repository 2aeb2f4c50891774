<?php
declare(strict_types=1);

namespace Switchboard;

/** A webhook delivery whose signature or timestamp does not verify. */
final class WebhookVerificationException extends SwitchboardException
{
}
