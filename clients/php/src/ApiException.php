<?php
declare(strict_types=1);

namespace Switchboard;

/** A non-2xx answer, with the fields of its application/problem+json body (see docs/errors.md). */
final class ApiException extends SwitchboardException
{
    public readonly ?string $type;
    public readonly ?string $title;
    public readonly ?string $detail;
    public readonly ?string $problemCode;
    public readonly ?string $requestId;
    /** @var list<array{field: string, message: string}> */
    public readonly array $errors;

    /**
     * @param array<string, mixed> $problem
     * @param array<string, string> $headers lower-case names
     */
    public function __construct(public readonly int $status, public readonly array $problem, public readonly array $headers)
    {
        $this->type = $problem['type'] ?? null;
        $this->title = $problem['title'] ?? null;
        $this->detail = $problem['detail'] ?? null;
        $this->problemCode = $problem['code'] ?? null;
        $this->requestId = $problem['request_id'] ?? ($headers['x-request-id'] ?? null);
        $this->errors = array_values($problem['errors'] ?? []);
        $fields = implode('; ', array_map(static fn (array $e): string => "{$e['field']} {$e['message']}", $this->errors));
        parent::__construct(trim("$status " . ($this->problemCode ?? $this->title ?? 'error') . ": {$this->detail} $fields"), $status);
    }
}
