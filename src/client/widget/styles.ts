/**
 * The widget's CSS, injected once per document so that an embed needs one script tag only. Every
 * rule is scoped under `.ecw` so it neither leaks into nor depends on the host page; colours are
 * custom properties a host may override. Text colours meet WCAG AA contrast on white.
 */
const CSS = `
.ecw{--ecw-accent:#0b5cad;--ecw-ink:#1b2430;--ecw-muted:#566270;--ecw-line:#dde3ea;--ecw-card:#fff;--ecw-chip:#eef2f7;--ecw-focus:#f0a500;
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ecw-ink)}
.ecw *,.ecw *::before,.ecw *::after{box-sizing:border-box}
.ecw-heading{font-size:1.375rem;line-height:1.25;margin:0 0 .85rem}
.ecw-filters{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 .85rem;padding:0;border:0;min-width:0}
.ecw-chip{appearance:none;font:inherit;font-size:.875rem;line-height:1.2;color:inherit;background:var(--ecw-chip);border:1px solid var(--ecw-line);border-radius:999px;padding:.4rem .85rem;cursor:pointer;display:inline-flex;gap:.4rem;align-items:center}
.ecw-chip:hover{border-color:var(--ecw-accent)}
.ecw-chip[aria-pressed="true"]{background:var(--ecw-accent);border-color:var(--ecw-accent);color:#fff}
.ecw-count{font-size:.75rem;opacity:.8}
.ecw button:focus-visible,.ecw a:focus-visible,.ecw-list:focus-visible{outline:3px solid var(--ecw-focus);outline-offset:2px}
.ecw-status{margin:0 0 .85rem;color:var(--ecw-muted);font-size:.875rem;min-height:1.3em}
.ecw-alert{margin:0 0 1rem;padding:.75rem 1rem;border-radius:.5rem;background:#fdecec;color:#8a1c1c;display:flex;gap:1rem;align-items:center}
.ecw-alert[hidden]{display:none}
.ecw-list{list-style:none;margin:0;padding:0;display:grid;gap:1.25rem;grid-template-columns:repeat(auto-fill,minmax(15.5rem,1fr));transition:opacity .15s}
.ecw-list[aria-busy="true"]{opacity:.55}
.ecw-card{position:relative;background:var(--ecw-card);border:1px solid var(--ecw-line);border-radius:.8rem;overflow:hidden;box-shadow:0 1px 2px rgba(16,24,40,.06);transition:box-shadow .15s,transform .15s}
.ecw-card:hover{box-shadow:0 6px 18px rgba(16,24,40,.12);transform:translateY(-1px)}
.ecw-card article{display:flex;flex-direction:column;height:100%}
.ecw-media{aspect-ratio:16/10;background:linear-gradient(135deg,#dbe5f0,#b9cadd);overflow:hidden}
.ecw-media img{display:block;width:100%;height:100%}
.ecw-body{display:flex;flex-direction:column;gap:.3rem;padding:.8rem 1rem 1rem;flex:1}
.ecw-when{margin:0;font-size:.8125rem;font-weight:650;color:var(--ecw-accent);display:flex;flex-wrap:wrap;gap:.45rem}
.ecw-date{display:inline-block}
.ecw-date::first-letter{text-transform:uppercase}
.ecw-title{margin:0;font-size:1.0625rem;line-height:1.3}
.ecw-title a{color:inherit;text-decoration:none}
.ecw-title a::after{content:"";position:absolute;inset:0}
.ecw-card:hover .ecw-title a{text-decoration:underline}
.ecw-venue{margin:0;color:var(--ecw-muted);font-size:.875rem}
.ecw-tags{list-style:none;margin:.15rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.3rem}
.ecw-tags li{font-size:.75rem;background:var(--ecw-chip);color:var(--ecw-muted);border-radius:999px;padding:.1rem .55rem}
.ecw-foot{margin-top:auto;padding-top:.55rem;display:flex;align-items:center;justify-content:space-between;gap:.5rem}
.ecw-price{font-weight:650}
.ecw-badge{font-size:.75rem;font-weight:700;border-radius:.3rem;padding:.1rem .45rem;background:#fdecec;color:#8a1c1c}
.ecw-badge--soldout{background:#fff4de;color:#7a4a00}
.ecw-pager{display:flex;align-items:center;justify-content:center;gap:1rem;margin-top:1.5rem}
.ecw-pager[hidden]{display:none}
.ecw-button{appearance:none;font:inherit;font-size:.9375rem;color:var(--ecw-accent);background:#fff;border:1px solid var(--ecw-accent);border-radius:.5rem;padding:.45rem 1rem;cursor:pointer}
.ecw-button:hover:not(:disabled){background:var(--ecw-accent);color:#fff}
.ecw-button:disabled{opacity:.4;cursor:default}
.ecw-page{color:var(--ecw-muted);font-size:.875rem}
@media (prefers-reduced-motion:reduce){.ecw-card,.ecw-list{transition:none}.ecw-card:hover{transform:none}}
`;

export function injectStyles(doc: Document): void {
  if (doc.getElementById('ecw-styles')) return;
  const style = doc.createElement('style');
  style.id = 'ecw-styles';
  style.textContent = CSS;
  doc.head.append(style);
}
