import { findSentences, llmMessages, LLM_ANSWER_SCHEMA, repairLlmAnswer, type FoundMoment, type TimedWord } from '@wordcut/keymoments';
import type { Logger } from '@wordcut/platform';

/** Where the model is and how long it may take. */
export interface KeyMomentsLlmSettings {
  /** the endpoint's base (`<url>/chat/completions` is called) */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** The largest answer body read from the endpoint; a longer one is rejected. */
export const LLM_ANSWER_MAX_BYTES = 1024 * 1024;

/**
 * Key moments from an OpenAI-compatible chat endpoint (docs/KEYMOMENTS.md): the transcript's
 * sentences go there with a strict JSON answer schema; the answer is checked and repaired by
 * @wordcut/keymoments. Any failure (refused, slow, too long, not JSON, too little that holds) answers
 * null, and the local analyser answers instead.
 */
export class KeyMomentsLlm {
  constructor(
    private readonly settings: KeyMomentsLlmSettings,
    private readonly logger: Logger,
  ) {}

  get model(): string {
    return this.settings.model;
  }

  async find(words: readonly TimedWord[], videoId: string): Promise<FoundMoment[] | null> {
    const sentences = findSentences(words);
    const messages = llmMessages(sentences);
    if (!messages) {
      this.logger.info({ videoId, sentences: sentences.length }, 'key moments: transcript too long for the language model, local analyser');
      return null;
    }
    try {
      const res = await fetch(`${this.settings.url.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}) },
        body: JSON.stringify({
          model: this.settings.model,
          messages,
          temperature: 0,
          response_format: { type: 'json_schema', json_schema: { name: 'key_moments', strict: true, schema: LLM_ANSWER_SCHEMA } },
        }),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'error',
      });
      if (!res.ok) throw new Error(`the endpoint answered ${res.status}`);
      const body = await readCapped(res, LLM_ANSWER_MAX_BYTES, this.settings.timeoutMs);
      const content = (JSON.parse(body) as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new Error('the answer has no message content');
      const moments = repairLlmAnswer(JSON.parse(content), sentences);
      if (!moments) throw new Error('too little of the answer holds');
      return moments;
    } catch (err) {
      this.logger.warn({ videoId, err: (err as Error).message }, 'key moments: language model failed, local analyser');
      return null;
    }
  }
}

/** The response's text, failing past `max` bytes or once `timeoutMs` has passed while reading. */
async function readCapped(res: Response, max: number, timeoutMs: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > deadline) {
      await reader.cancel();
      throw new Error('the answer took too long');
    }
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`the answer is over ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
