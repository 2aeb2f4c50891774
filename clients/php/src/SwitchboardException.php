<?php
declare(strict_types=1);

namespace Switchboard;

/** Base class of everything this package throws. */
class SwitchboardException extends \RuntimeException
{
}
