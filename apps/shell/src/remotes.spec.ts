const registerRemotes = jest.fn();
const loadRemote = jest.fn();
jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: (...args: unknown[]) => registerRemotes(...args),
  loadRemote: (...args: unknown[]) => loadRemote(...args),
}));

type RemotesModule = typeof import('./remotes');

function loadFresh(): RemotesModule {
  let mod: RemotesModule | undefined;
  jest.isolateModules(() => {
    mod = jest.requireActual<RemotesModule>('./remotes');
  });
  return mod!;
}

function answer(status: number, body: unknown) {
  return { ok: status >= 200 && status < 300, status, json: async () => body } as unknown as Response;
}

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>();

beforeEach(() => {
  registerRemotes.mockReset();
  loadRemote.mockReset();
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});

describe('normalizeEntry / parseRemotesConfig', () => {
  const { normalizeEntry, parseRemotesConfig } = loadFresh();

  it('keeps manifest and remoteEntry URLs, completes base URLs with the manifest', () => {
    expect(normalizeEntry('http://localhost:4201/mf-manifest.json')).toBe('http://localhost:4201/mf-manifest.json');
    expect(normalizeEntry('https://cdn.example.com/editor/remoteEntry.js?v=3')).toBe('https://cdn.example.com/editor/remoteEntry.js?v=3');
    expect(normalizeEntry('https://cdn.example.com/editor/')).toBe('https://cdn.example.com/editor/mf-manifest.json');
    expect(normalizeEntry('/remotes/editor')).toBe('/remotes/editor/mf-manifest.json');
  });

  it('keeps only known remotes with string values', () => {
    expect(parseRemotesConfig({ editor: 'http://e/', publish: 3, other: 'http://x', analytics: ' ' })).toEqual({
      editor: 'http://e/mf-manifest.json',
    });
    expect(parseRemotesConfig(null)).toEqual({});
    expect(parseRemotesConfig(['editor'])).toEqual({});
  });
});

describe('loadRemoteModule', () => {
  it('fetches /remotes.json once, registers every remote and loads <container>/Module', async () => {
    const { loadRemoteModule } = loadFresh();
    fetchMock.mockResolvedValue(answer(200, { editor: 'http://localhost:4201/mf-manifest.json', keyclips: 'http://localhost:4202' }));
    const Editor = () => null;
    loadRemote.mockResolvedValue({ default: Editor });

    await expect(loadRemoteModule('editor')).resolves.toEqual({ default: Editor });
    await loadRemoteModule('editor');

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/remotes.json');
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ cache: 'no-store' });
    expect(registerRemotes).toHaveBeenCalledWith(
      [
        { name: 'wordcut_editor', entry: 'http://localhost:4201/mf-manifest.json' },
        { name: 'wordcut_keyclips', entry: 'http://localhost:4202/mf-manifest.json' },
      ],
      { force: true },
    );
    expect(loadRemote).toHaveBeenCalledWith('wordcut_editor/Module');
  });

  it('re-registers the remote (forced) on retry', async () => {
    const { loadRemoteModule } = loadFresh();
    fetchMock.mockResolvedValue(answer(200, { editor: 'http://localhost:4201/mf-manifest.json' }));
    loadRemote.mockResolvedValue({ default: () => null });
    await loadRemoteModule('editor', { retry: true });
    expect(registerRemotes).toHaveBeenLastCalledWith([{ name: 'wordcut_editor', entry: 'http://localhost:4201/mf-manifest.json' }], {
      force: true,
    });
  });

  it('rejects for an unconfigured remote, an empty module, or a failing load', async () => {
    const { loadRemoteModule } = loadFresh();
    fetchMock.mockResolvedValue(answer(200, { editor: 'http://localhost:4201/mf-manifest.json' }));
    await expect(loadRemoteModule('analytics')).rejects.toThrow('No URL is configured for the analytics remote');
    loadRemote.mockResolvedValueOnce(null);
    await expect(loadRemoteModule('editor')).rejects.toThrow('did not export a component');
    loadRemote.mockRejectedValueOnce(new Error('Failed to get manifest'));
    await expect(loadRemoteModule('editor')).rejects.toThrow('Failed to get manifest');
  });

  it('gives up on a remote that never answers', async () => {
    jest.useFakeTimers();
    try {
      const { loadRemoteModule, REMOTE_LOAD_TIMEOUT_MS } = loadFresh();
      fetchMock.mockResolvedValue(answer(200, { editor: 'http://10.255.255.1/mf-manifest.json' }));
      loadRemote.mockReturnValue(new Promise(() => undefined));
      const pending = loadRemoteModule('editor');
      const outcome = expect(pending).rejects.toThrow(/timed out/);
      await jest.advanceTimersByTimeAsync(REMOTE_LOAD_TIMEOUT_MS);
      await outcome;
    } finally {
      jest.useRealTimers();
    }
  });

  it('fetches /remotes.json again after it failed', async () => {
    const { loadRemoteModule } = loadFresh();
    fetchMock.mockResolvedValueOnce(answer(404, {}));
    await expect(loadRemoteModule('editor')).rejects.toThrow('/remotes.json answered 404');
    fetchMock.mockResolvedValueOnce(answer(200, { editor: 'http://localhost:4201/mf-manifest.json' }));
    loadRemote.mockResolvedValue({ default: () => null });
    await expect(loadRemoteModule('editor')).resolves.toBeDefined();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
