import { describe, expect, it } from "vitest";
import { resolveHttpTarget } from "../../../src/domains/export/export-target.js";
import { hideSecrets, redactUrl, redirectOrigin, urlSecrets } from "../../../src/domains/export/redact.js";

describe("redactUrl: the one way an endpoint is shown", () => {
  it.each([
    ["http://user:pw@127.0.0.1:4318/v1/traces?token=SECRET", "http://127.0.0.1:4318/v1/traces (credentials and query hidden)"],
    ["https://h/v1/traces#frag", "https://h/v1/traces (credentials and query hidden)"],
    ["https://user@h/x", "https://h/x (credentials and query hidden)"],
    ["http://h:4318/v1/traces", "http://h:4318/v1/traces"],
    ["http://user:pw@[bad", "<not a URL>"],
  ])("%s → %s", (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});

describe("hideSecrets: text aop did not write", () => {
  const url = "http://user:hunter2pw@127.0.0.1:4318/v1/traces?token=SECRET%2B1&x=ab#frag-SECRET";

  it("finds the password, the query (whole, each value, raw and decoded) and the fragment", () => {
    expect(urlSecrets(url)).toEqual(expect.arrayContaining(["hunter2pw", "token=SECRET%2B1&x=ab", "SECRET+1", "frag-SECRET"]));
    expect(urlSecrets("not a url")).toEqual(["not a url"]);
  });

  it("replaces them, longest first, and leaves values too short to be credentials", () => {
    const secrets = [...urlSecrets(url), "Bearer abcdef123456", "4"];
    const text = `cannot POST /v1/traces?token=SECRET%2B1&x=ab (user hunter2pw, token SECRET+1, auth Bearer abcdef123456, version 4)`;
    expect(hideSecrets(text, secrets)).toBe("cannot POST /v1/traces?<hidden> (user <hidden>, token <hidden>, auth <hidden>, version 4)");
    expect(hideSecrets("nothing here", secrets)).toBe("nothing here");
  });
});

describe("redirectOrigin: where a redirect points, scheme://host:port only", () => {
  it.each([
    ["http://u:p@10.0.0.1:9999/x?token=SECRET", "http://10.0.0.1:9999"],
    ["https://evil.example/v1/traces", "https://evil.example:443"],
    ["/elsewhere?token=SECRET", "http://127.0.0.1:4318"],
    ["//other.example/x", "http://other.example:80"],
    ["file:///etc/passwd", "a file: address"],
    [null, null],
    ["", null],
    ["http://[bad", null],
  ])("%s → %s", (location, origin) => {
    expect(redirectOrigin(location, "http://127.0.0.1:4318/v1/traces")).toBe(origin);
  });
});

describe("the endpoint's user info", () => {
  it("goes as Basic credentials; the URL requests go to has none, the shown one says it was hidden", () => {
    const target = resolveHttpTarget({ endpoint: "http://us%40er:p%3Aw@h:4318/v1/traces?k=SECRET" }, {}, null);
    expect(target.url).toBe("http://h:4318/v1/traces?k=SECRET");
    expect(target.display).toBe("http://h:4318/v1/traces (credentials and query hidden)");
    expect(target.headers.authorization).toBe(`Basic ${Buffer.from("us@er:p:w").toString("base64")}`);
    expect(target.secrets).toEqual(expect.arrayContaining(["p%3Aw", "k=SECRET", "SECRET", target.headers.authorization]));
  });

  it("refuses user info together with an authorization header (one of them would be dropped)", () => {
    expect(() => resolveHttpTarget({ endpoint: "http://u:p@h:4318", headers: ["authorization=Bearer x"] }, {}, null)).toThrow(/--endpoint has user:password@ and an authorization header is set too/);
  });

  it("a URL without user info sends no authorization", () => {
    expect(resolveHttpTarget({ endpoint: "http://h:4318" }, {}, null).headers).toEqual({});
  });
});
