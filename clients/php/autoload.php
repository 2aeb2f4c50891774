<?php
// PSR-4 for Switchboard\ without Composer: Switchboard\Foo\Bar lives in src/Foo/Bar.php (as composer.json maps it).
declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Switchboard\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
