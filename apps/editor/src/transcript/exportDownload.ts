import { EDIT_EXPORT_FORMATS, type EditExportFormat } from '@wordcut/contracts';
import { apiFetch } from '@wordcut/ui';
import { videoPath } from '../shared/api';

/** The file name a download's Content-Disposition gives (its exact UTF-8 name when present). */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (exact) {
    try {
      return decodeURIComponent(exact);
    } catch {
      // a malformed name falls through to the plain one
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/** GET /api/videos/{id}/export/{format} with the page's identity, saved by the browser under the server's file name. */
export async function downloadExport(videoId: string, format: EditExportFormat, doc: Document = document): Promise<string> {
  const response = await apiFetch(`${videoPath(videoId)}/export/${encodeURIComponent(format)}`);
  const name = dispositionFileName(response.headers.get('content-disposition'), `export.${EDIT_EXPORT_FORMATS[format].extension}`);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = doc.createElement('a');
    link.href = url;
    link.download = name;
    doc.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return name;
}
