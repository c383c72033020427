import { RTL_LANGUAGES } from '@wordcut/contracts';

/** Language used when neither the file, the caller's hint nor a default names one. */
export const FALLBACK_LANGUAGE = 'en';

const RTL = new Set<string>(RTL_LANGUAGES);

/**
 * Canonical BCP 47 form of a language tag ("en-us" -> "en-US", "EN" -> "en", "pt_br" -> "pt-BR",
 * "zh-hant-tw" -> "zh-Hant-TW"), or undefined when the value is not a language tag
 * (e.g. "English", "" or "??").
 */
export function normalizeLanguageCode(value: string | null | undefined): string | undefined {
  const candidate = value?.trim().replace(/_/g, '-');
  if (!candidate || !/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(candidate)) return undefined;
  try {
    const code = Intl.getCanonicalLocales(candidate)[0];
    // 'und' is BCP 47 for "undetermined": no information
    return code && !/^und(-|$)/i.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** The first candidate that is a valid language tag, normalized; FALLBACK_LANGUAGE when none is. */
export function pickLanguage(...candidates: Array<string | null | undefined>): string {
  for (const candidate of candidates) {
    const code = normalizeLanguageCode(candidate);
    if (code) return code;
  }
  return FALLBACK_LANGUAGE;
}

/** True when the language is written right to left: its primary subtag is one of RTL_LANGUAGES. */
export function isRtl(languageCode: string): boolean {
  const primary = languageCode.trim().split(/[-_]/)[0]!.toLowerCase();
  return RTL.has(primary);
}
