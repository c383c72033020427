import { z } from 'zod';
import { loadConfig, natsConfig } from './config';

const schema = z.object({ ...natsConfig });

describe('natsConfig credentials', () => {
  it('are optional', () => {
    const c = loadConfig('test', schema, { NATS_URL: 'nats://127.0.0.1:4222' });
    expect(c.NATS_USER).toBeUndefined();
    expect(c.NATS_PASSWORD).toBeUndefined();
    expect(c.NATS_TOKEN).toBeUndefined();
  });

  it('are read from the environment', () => {
    const c = loadConfig('test', schema, { NATS_URL: 'nats://nats:4222', NATS_USER: 'wordcut', NATS_PASSWORD: 's3cret', NATS_TOKEN: 'tok' });
    expect(c).toMatchObject({ NATS_USER: 'wordcut', NATS_PASSWORD: 's3cret', NATS_TOKEN: 'tok' });
  });

  it('count an empty value as unset', () => {
    const c = loadConfig('test', schema, { NATS_URL: 'nats://nats:4222', NATS_USER: '', NATS_PASSWORD: '', NATS_TOKEN: '' });
    expect(c.NATS_USER).toBeUndefined();
    expect(c.NATS_PASSWORD).toBeUndefined();
    expect(c.NATS_TOKEN).toBeUndefined();
  });

  it('are optional keys of a service config (a config literal without them type-checks)', () => {
    const c: z.infer<typeof schema> = { NATS_URL: 'nats://nats:4222', NATS_NAMESPACE: 'wordcut', NATS_STREAM_REPLICAS: 1 };
    expect(c.NATS_USER).toBeUndefined();
  });

  it('keep one copy of each stream unless told how many (1 to 5)', () => {
    expect(loadConfig('test', schema, { NATS_URL: 'nats://nats:4222' }).NATS_STREAM_REPLICAS).toBe(1);
    expect(loadConfig('test', schema, { NATS_URL: 'nats://nats:4222', NATS_STREAM_REPLICAS: '3' }).NATS_STREAM_REPLICAS).toBe(3);
    expect(() => loadConfig('test', schema, { NATS_URL: 'nats://nats:4222', NATS_STREAM_REPLICAS: '0' })).toThrow(/NATS_STREAM_REPLICAS/);
  });
});
