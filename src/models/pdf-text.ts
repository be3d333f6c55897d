// A PDF's text and page count, read with pdf.js (through unpdf's build for servers, which needs no
// worker or canvas). The one place the project opens a PDF.
import { extractText, getDocumentProxy } from "unpdf";

export interface PdfText {
  pages: number;
  /** Each page's text, in order. */
  texts: string[];
}

/**
 * Reads `data` as a PDF; rejects with pdf.js's reason when it is not one, is damaged or is locked
 * with a password. Fonts are never compiled to code (`isEvalSupported: false`): a PDF is the
 * person's file, but it may come from anywhere.
 */
export async function pdfText(data: Uint8Array): Promise<PdfText> {
  // pdf.js takes the buffer it is given over: it gets a copy.
  const document = await getDocumentProxy(new Uint8Array(data), { isEvalSupported: false, verbosity: 0 });
  try {
    const { totalPages, text } = await extractText(document, { mergePages: false });
    return { pages: totalPages, texts: text };
  } finally {
    await document.destroy();
  }
}
