import { webhookUrlRefusal, type WebhookTargetPolicy } from '@switchboard/schemas';

const strict: WebhookTargetPolicy = { allowHttp: false, allowPrivateNetworks: false, allowedHosts: [] };

describe('webhookUrlRefusal', () => {
  const refusal = (url: string, policy: Partial<WebhookTargetPolicy> = {}) => webhookUrlRefusal(new URL(url), { ...strict, ...policy });

  it('accepts public https URLs and host names', () => {
    expect(refusal('https://hooks.example.com/x')).toBeNull();
    expect(refusal('https://93.184.216.34/x')).toBeNull();
  });

  it('refuses http unless allowed', () => {
    expect(refusal('http://hooks.example.com/x')).toMatch(/https/);
    expect(refusal('http://hooks.example.com/x', { allowHttp: true })).toBeNull();
  });

  it('refuses private literals and localhost unless allowed or listed', () => {
    expect(refusal('https://10.0.0.5/x')).toMatch(/private/);
    expect(refusal('https://localhost:8443/x')).toMatch(/loopback/);
    expect(refusal('https://[::1]/x')).toMatch(/loopback/);
    expect(refusal('https://10.0.0.5/x', { allowPrivateNetworks: true })).toBeNull();
    expect(refusal('https://10.0.0.5/x', { allowedHosts: ['10.0.0.5'] })).toBeNull();
    expect(refusal('https://[::1]:9/x', { allowedHosts: ['::1'] })).toBeNull();
  });

  it('never allows metadata addresses, whatever the policy', () => {
    const open = { allowHttp: true, allowPrivateNetworks: true, allowedHosts: ['169.254.169.254'] };
    expect(refusal('http://169.254.169.254/latest/meta-data', open)).toMatch(/metadata/);
    expect(refusal('https://[fd00:ec2::254]/', open)).toMatch(/metadata/);
    expect(refusal('https://[::ffff:a9fe:a9fe]/', open)).toMatch(/metadata/);
  });
});
