// The reference page's only stylesheet, inline (its CSP allows nothing else). The
// contents stay in reach on a long page without a script: a sticky sidebar on wide
// screens, a sticky bar of links that scrolls sideways on narrow ones.
export const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--get:#0969da;--post:#1a7f37;--warn:#9a6700;--bad:#cf222e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--soft:#151b23;--get:#4493f8;--post:#3fb950;--warn:#d29922;--bad:#f85149}}
body{margin:0 auto;max-width:84rem;padding:0 1.25rem 4rem;font:16px/1.5 system-ui,sans-serif;color:var(--fg)}
h1{margin-bottom:.25rem}h2{margin-top:2.5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;margin:2rem 0 .25rem}h4{margin:1.25rem 0 .5rem}
.anchor{color:inherit;text-decoration:none;display:inline-flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
:is(h2,h3):hover .anchor::after{content:"#";color:var(--muted)}
code,pre{font:.875em/1.45 ui-monospace,monospace}code{background:var(--soft);border-radius:4px;padding:.1em .3em}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow-x:auto}pre code{padding:0}
a{color:var(--get)}.version,.meta{color:var(--muted);font-size:.9rem}.meta{margin-top:0}
.method{display:inline-block;min-width:3.2rem;text-align:center;border-radius:4px;padding:0 .4rem;color:#fff;font:600 .8rem/1.6 ui-monospace,monospace}
.method-get{background:var(--get)}.method-post{background:var(--post)}.method-put,.method-patch{background:var(--warn)}.method-delete{background:var(--bad)}
.operation{border-top:1px solid var(--line)}.deprecated .path{text-decoration:line-through}.badge{color:var(--warn)}
.required{color:var(--bad);font-size:.75rem;font-weight:600}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.9rem;display:block;overflow-x:auto}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:var(--soft)}td:first-child code{white-space:nowrap}
details{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.25rem .75rem}summary{cursor:pointer}
.status{font:600 .9rem ui-monospace,monospace}.status-2,.status-3{color:var(--post)}.status-4{color:var(--warn)}.status-5{color:var(--bad)}
.contents{position:sticky;top:0;z-index:1;background:Canvas;font-size:.9rem}.contents ul{list-style:none;margin:0;padding:0}.contents a{text-decoration:none}
@media (min-width:64rem){body{display:grid;grid-template-columns:15rem minmax(0,1fr);column-gap:2.5rem}header,main{grid-column:2}
.contents{grid-area:1/1/3;align-self:start;max-height:100vh;overflow-y:auto;box-sizing:border-box;padding:1rem 0}.contents li{margin:.2rem 0}.contents li li{margin-left:.75rem}}
@media (max-width:63.99rem){html{scroll-padding-top:3rem}.contents{overflow-x:auto;white-space:nowrap;border-bottom:1px solid var(--line);padding:.5rem 0}
.contents :is(ul,li){display:inline}.contents li{margin-right:.75rem}.contents ul ul{margin-left:.5rem}}
`;
