<?php
declare(strict_types=1);

namespace Switchboard;

/** One HTTP request through curl, retried on network errors, 429 and 5xx (see docs/conventions.md). */
final class Transport
{
    // Methods that can be repeated without effect; a POST is repeated only with an Idempotency-Key.
    private const SAFE_TO_REPEAT = ['GET', 'HEAD', 'PUT', 'DELETE'];

    /** @var \Closure(float): void */
    private \Closure $sleep;

    public function __construct(
        private readonly string $baseUrl,
        private readonly string $apiKey,
        private readonly RetryPolicy $retry = new RetryPolicy(),
        private readonly float $timeout = 30.0,
        ?\Closure $sleep = null,
    ) {
        $this->sleep = $sleep ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
    }

    /**
     * @param array<string, scalar|null> $query
     * @param array<string, string> $headers
     * @param bool $raw keeps a successful answer's body as the bytes received (a recording); an error is still a problem
     * @return array{status: int, headers: array<string, string>, body: mixed}
     */
    public function request(string $method, string $path, array $query = [], mixed $body = null, array $headers = [], bool $raw = false): array
    {
        $url = rtrim($this->baseUrl, '/') . $path;
        $params = array_filter($query, static fn ($v): bool => $v !== null);
        if ($params !== []) {
            $url .= '?' . http_build_query($params, '', '&', PHP_QUERY_RFC3986);
        }
        $sent = ['Authorization' => "Bearer {$this->apiKey}", 'Accept' => $raw ? '*/*' : 'application/json', 'User-Agent' => 'switchboard-php/0.1.0'];
        $data = null;
        if ($body !== null) {
            $data = json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
            $sent['Content-Type'] = 'application/json';
        }
        $sent = array_merge($sent, $headers);
        $repeatable = in_array($method, self::SAFE_TO_REPEAT, true) || isset($sent['Idempotency-Key']);
        for ($attempt = 1; ; $attempt++) {
            try {
                $response = $this->once($method, $url, $data, $sent, $raw);
            } catch (NetworkException $error) {
                if (!$repeatable || $attempt >= $this->retry->maxAttempts) {
                    throw $error;
                }
                ($this->sleep)($this->retry->delay($attempt, null));
                continue;
            }
            if ($response['status'] < 400) {
                return $response;
            }
            $problem = is_array($response['body']) ? $response['body'] : [];
            // 429 means the request was not processed, so even a bare POST may be repeated.
            $mayRepeat = $repeatable || $response['status'] === 429;
            if ($mayRepeat && $attempt < $this->retry->maxAttempts && RetryPolicy::isRetryableStatus($response['status'], $problem['code'] ?? null)) {
                ($this->sleep)($this->retry->delay($attempt, $response['headers']['retry-after'] ?? null));
                continue;
            }
            throw new ApiException($response['status'], $problem, $response['headers']);
        }
    }

    /**
     * @param array<string, string> $headers
     * @return array{status: int, headers: array<string, string>, body: mixed}
     */
    private function once(string $method, string $url, ?string $data, array $headers, bool $keepBytes = false): array
    {
        $received = [];
        $curl = curl_init($url);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => (int) ($this->timeout * 1000),
            CURLOPT_HTTPHEADER => array_map(static fn (string $k, string $v): string => "$k: $v", array_keys($headers), $headers),
            CURLOPT_HEADERFUNCTION => static function ($handle, string $line) use (&$received): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $received[strtolower(trim($parts[0]))] = trim($parts[1]);
                }
                return strlen($line);
            },
        ]);
        if ($data !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, $data);
        }
        $raw = curl_exec($curl);
        if ($raw === false) {
            $message = curl_error($curl);
            curl_close($curl);
            throw new NetworkException("$method $url: $message");
        }
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        curl_close($curl);
        if ($keepBytes && $status < 400) {
            return ['status' => $status, 'headers' => $received, 'body' => (string) $raw];
        }
        $decoded = $raw === '' ? null : json_decode((string) $raw, true);
        return ['status' => $status, 'headers' => $received, 'body' => $decoded ?? ($raw === '' ? null : $raw)];
    }
}
