import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, headerPolicy, renderReportHtml } from "../../../src/domains/report/html-page.js";
import type { ReportData } from "../../../src/domains/report/report-types.js";

const assets = { script: "document.title='x';", css: "body{color:red}" };
const data = { format: 1, notes: ["</script><script>alert(1)</script>", "<!--", "\u2028"] } as unknown as ReportData;
const hash = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;

describe("the report's HTML", () => {
  it("allows only its own script and style by hash and nothing over the network", () => {
    const csp = contentSecurityPolicy(assets, "file");
    expect(csp).toBe(`default-src 'none'; script-src ${hash(assets.script)}; style-src ${hash(assets.css)}; img-src data:; base-uri 'none'; form-action 'none'`);
    expect(contentSecurityPolicy(assets, "served")).toContain("connect-src 'self'");
    expect(headerPolicy(assets)).toMatch(/; frame-ancestors 'none'$/);
  });

  it("embeds the data where no agent text can end the element", () => {
    const html = renderReportHtml(data, assets, "file");
    const m = /<script type="application\/json" id="aop-report-data">([^<]*)<\/script>/.exec(html);
    expect(m).not.toBeNull();
    expect(JSON.parse(m![1]!)).toEqual(data);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain(`<script>${assets.script}</script>`);
  });

  it("refuses page assets that would end their own element", () => {
    expect(() => renderReportHtml(data, { ...assets, script: "x='</script>'" }, "file")).toThrow(/would end its element/);
    expect(() => renderReportHtml(data, { ...assets, css: "/*</style>*/" }, "file")).toThrow(/would end its element/);
  });
});
