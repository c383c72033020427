/**
 * A scripted XMLHttpRequest for specs (test-only; excluded from the app's tsconfig and never
 * imported by app code): records what was sent and lets the spec drive progress and answers.
 */
export class FakeXhr {
  method: string | null = null;
  url: string | null = null;
  withCredentials = false;
  headers: Record<string, string> = {};
  body: unknown = undefined;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  /** called when send() runs */
  onSend: ((xhr: FakeXhr) => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
    this.onSend?.(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, body: string, statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = body;
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
  asXhr(): XMLHttpRequest {
    return this as unknown as XMLHttpRequest;
  }
}
