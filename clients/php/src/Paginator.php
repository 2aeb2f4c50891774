<?php
declare(strict_types=1);

namespace Switchboard;

/** Every item of a cursor-paginated list, fetching page after page (see docs/conventions.md). */
final class Paginator
{
    /**
     * @param array<string, scalar|null> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public static function all(Transport $transport, string $path, array $query): \Generator
    {
        while (true) {
            $page = $transport->request('GET', $path, $query)['body'];
            yield from $page['data'];
            if (empty($page['next_cursor'])) {
                return;
            }
            $query['cursor'] = $page['next_cursor'];
        }
    }
}
