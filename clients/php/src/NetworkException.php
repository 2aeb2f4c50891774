<?php
declare(strict_types=1);

namespace Switchboard;

/** The request never got an HTTP answer (connection refused or reset, timeout), after every retry. */
final class NetworkException extends SwitchboardException
{
}
