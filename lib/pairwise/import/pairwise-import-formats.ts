/**
 * The pairwise import formats, one list: a new format is a file under formats/ and a line here (and its id in
 * PAIRWISE_IMPORT_FORMAT_IDS, which the request schema offers).
 */
import type { PairImportOptions } from "./import.types";
import { arenaFormat } from "./formats/arena";
import type { PairwiseImportFormat } from "./formats/format";
import { csvFormat, jsonlFormat } from "./formats/generic";
import { genaiBenchFormat } from "./formats/genai-bench";
import { uveFormat } from "./formats/uve";

export const PAIRWISE_IMPORT_FORMATS: readonly PairwiseImportFormat[] = [
  uveFormat,
  arenaFormat,
  genaiBenchFormat,
  csvFormat,
  jsonlFormat,
];

export function pairwiseImportFormat(id: PairImportOptions["format"]): PairwiseImportFormat {
  const format = PAIRWISE_IMPORT_FORMATS.find((f) => f.id === id);
  if (!format) throw new Error(`No pairwise import format "${id}" in PAIRWISE_IMPORT_FORMATS.`);
  return format;
}
