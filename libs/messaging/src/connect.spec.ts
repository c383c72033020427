/**
 * The NATS credentials a service configures (NATS_USER/NATS_PASSWORD or NATS_TOKEN) reach the
 * options of the NATS connection, and half a pair stops the service instead of connecting
 * anonymously. The transport and JetStream are mocked: no NATS server is needed.
 */
import { createLogger } from '@wordcut/platform';
import { Messaging, natsConnectOptions } from './messaging';

const connect = jest.fn();
jest.mock('@nats-io/transport-node', () => ({ connect: (...args: unknown[]) => connect(...args) }));
jest.mock('@nats-io/jetstream', () => ({
  ...jest.requireActual('@nats-io/jetstream'),
  jetstream: jest.fn(() => ({})),
  jetstreamManager: jest.fn(async () => ({})),
}));

const logger = createLogger('test', 'silent');
const base = { servers: 'nats://a:4222,nats://b:4222', namespace: 'wordcut', name: 'gateway', logger };

beforeEach(() => {
  connect.mockReset();
  connect.mockResolvedValue({});
});

describe('natsConnectOptions', () => {
  it('connects without credentials when none are given', () => {
    const o = natsConnectOptions(base);
    expect(o).toEqual({ servers: ['nats://a:4222', 'nats://b:4222'], name: 'gateway', maxReconnectAttempts: -1 });
    expect(o).not.toHaveProperty('user');
    expect(o).not.toHaveProperty('token');
  });

  it('passes a user and password', () => {
    expect(natsConnectOptions({ ...base, user: 'wordcut', pass: 's3cret' })).toMatchObject({ user: 'wordcut', pass: 's3cret' });
  });

  it('passes a token', () => {
    const o = natsConnectOptions({ ...base, token: 'tok-123' });
    expect(o).toMatchObject({ token: 'tok-123' });
    expect(o).not.toHaveProperty('user');
  });

  it('treats empty strings as unset', () => {
    expect(natsConnectOptions({ ...base, user: '', pass: '', token: '' })).not.toHaveProperty('user');
  });

  it('refuses half a user/password pair and both kinds at once', () => {
    expect(() => natsConnectOptions({ ...base, user: 'wordcut' })).toThrow(/NATS_USER and NATS_PASSWORD/);
    expect(() => natsConnectOptions({ ...base, pass: 's3cret' })).toThrow(/NATS_USER and NATS_PASSWORD/);
    expect(() => natsConnectOptions({ ...base, user: 'u', pass: 'p', token: 't' })).toThrow(/not both/);
  });
});

describe('Messaging.connect', () => {
  it('hands the credentials to the NATS connection', async () => {
    await Messaging.connect({ ...base, user: 'wordcut', pass: 's3cret' });
    expect(connect).toHaveBeenCalledTimes(1);
    expect(connect).toHaveBeenCalledWith(expect.objectContaining({ servers: ['nats://a:4222', 'nats://b:4222'], name: 'gateway', user: 'wordcut', pass: 's3cret' }));

    await Messaging.connect({ ...base, token: 'tok-123' });
    expect(connect).toHaveBeenLastCalledWith(expect.objectContaining({ token: 'tok-123' }));
  });

  it('does not connect with half a pair', async () => {
    await expect(Messaging.connect({ ...base, pass: 's3cret' })).rejects.toThrow(/NATS_USER and NATS_PASSWORD/);
    expect(connect).not.toHaveBeenCalled();
  });
});
