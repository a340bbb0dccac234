// Writes tools.md for a workspace from the packaged catalog and schemas.
import { writeFileAtomic } from "../store/atomic-write.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { loadCatalog, readSchemaDocument } from "./catalog.js";
import { renderToolsDoc } from "./tools-doc.js";

export function toolsDocText(): string {
  return renderToolsDoc(loadCatalog().tools, (t) => readSchemaDocument(t.input_schema_ref));
}

export function writeToolsDoc(layout: WorkspaceLayout): string {
  writeFileAtomic(layout.toolsDoc, toolsDocText());
  return layout.toolsDoc;
}
