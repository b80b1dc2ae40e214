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
.ecw-bar{display:flex;align-items:flex-start;gap:.5rem;min-width:0}
.ecw-bar>.ecw-filters{flex:1}
.ecw-search-toggle{display:none;flex:none;width:2.6rem;height:2.6rem;place-items:center;appearance:none;cursor:pointer;color:var(--ecw-ink);background:var(--ecw-chip) url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20' fill='none' stroke='%231b2430' stroke-width='2' stroke-linecap='round'%3E%3Ccircle cx='8.5' cy='8.5' r='5.5'/%3E%3Cpath d='m13 13 4.5 4.5'/%3E%3C/svg%3E") no-repeat 50% 50%/1.2rem;border:1px solid var(--ecw-line);border-radius:50%}
.ecw-search-toggle[aria-expanded="true"]{background-color:var(--ecw-accent);border-color:var(--ecw-accent);background-image:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20' fill='none' stroke='%23fff' stroke-width='2' stroke-linecap='round'%3E%3Ccircle cx='8.5' cy='8.5' r='5.5'/%3E%3Cpath d='m13 13 4.5 4.5'/%3E%3C/svg%3E")}
.ecw-search{position:relative;margin:0 0 .85rem;max-width:30rem}
.ecw-search-field{position:relative}
.ecw-search-input{display:block;width:100%;margin:0;font:inherit;font-size:1rem;line-height:1.3;color:inherit;background:#fff url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20' fill='none' stroke='%23566270' stroke-width='2' stroke-linecap='round'%3E%3Ccircle cx='8.5' cy='8.5' r='5.5'/%3E%3Cpath d='m13 13 4.5 4.5'/%3E%3C/svg%3E") no-repeat .75rem 50%/1.1rem;border:1px solid #7b8794;border-radius:.5rem;padding:.6rem 2.6rem .6rem 2.4rem}
.ecw-search-input::placeholder{color:var(--ecw-muted);opacity:1}
.ecw-search-input:focus{outline:3px solid var(--ecw-focus);outline-offset:1px}
.ecw-search-clear{position:absolute;right:.35rem;top:50%;transform:translateY(-50%);width:2rem;height:2rem;display:grid;place-items:center;appearance:none;font:inherit;font-size:1.35rem;line-height:1;color:var(--ecw-muted);background:none;border:0;border-radius:50%;cursor:pointer}
.ecw-search-clear:hover{background:var(--ecw-chip);color:var(--ecw-ink)}
.ecw-search-clear[hidden]{display:none}
.ecw-suggestions{position:absolute;z-index:10;left:0;right:0;top:calc(100% + .3rem);margin:0;padding:.3rem 0;list-style:none;background:#fff;border:1px solid var(--ecw-line);border-radius:.6rem;box-shadow:0 10px 28px rgba(16,24,40,.18);max-height:min(23rem,60vh);overflow-y:auto;overscroll-behavior:contain}
.ecw-suggestions[hidden]{display:none}
.ecw-suggestion{display:flex;gap:.75rem;align-items:center;padding:.45rem .85rem;cursor:pointer}
.ecw-suggestion-text{flex:1;min-width:0;display:flex;flex-direction:column}
.ecw-suggestion[aria-selected="true"]{background:var(--ecw-chip);box-shadow:inset 3px 0 var(--ecw-accent)}
.ecw-suggestion-label{overflow-wrap:anywhere}
.ecw-suggestion-kind{font-size:.75rem;color:var(--ecw-muted)}
.ecw-suggestion-hits{flex:none;opacity:1;font-size:.8125rem;font-variant-numeric:tabular-nums;color:var(--ecw-ink);background:var(--ecw-chip);border-radius:999px;padding:.05rem .5rem}
.ecw-visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.ecw-filters{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 .85rem;padding:0;border:0;min-width:0}
.ecw-filters[hidden]{display:none}
.ecw-chip{flex:none;white-space:nowrap;appearance:none;font:inherit;font-size:.875rem;line-height:1.2;color:inherit;background:var(--ecw-chip);border:1px solid var(--ecw-line);border-radius:999px;padding:.4rem .85rem;cursor:pointer;display:inline-flex;gap:.4rem;align-items:center}
.ecw-chip:hover{border-color:var(--ecw-accent)}
.ecw-chip[aria-pressed="true"]{background:var(--ecw-accent);border-color:var(--ecw-accent);color:#fff}
.ecw-count{font-size:.75rem;opacity:.8}
.ecw button:focus-visible,.ecw a:focus-visible,.ecw-list:focus-visible{outline:3px solid var(--ecw-focus);outline-offset:2px}
.ecw-meta{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.2rem 1rem;margin:0 0 .85rem}
.ecw-status{margin:0;color:var(--ecw-muted);font-size:.875rem;min-height:1.3em}
.ecw-zone{margin:0;color:var(--ecw-muted);font-size:.8125rem}
.ecw-zone[hidden]{display:none}
.ecw-subscribe{font-size:.8125rem;color:inherit}
.ecw-alert{margin:0 0 1rem;padding:.75rem 1rem;border-radius:.5rem;background:#fdecec;color:#8a1c1c;display:flex;gap:1rem;align-items:center}
.ecw-alert[hidden]{display:none}
.ecw-list{list-style:none;margin:0;padding:0;display:grid;gap:1.25rem;grid-template-columns:repeat(auto-fill,minmax(min(15.5rem,100%),1fr));transition:opacity .15s}
.ecw-list[aria-busy="true"]{opacity:.55}
.ecw-card{position:relative;background:var(--ecw-card);border:1px solid var(--ecw-line);border-radius:.8rem;overflow:hidden;box-shadow:0 1px 2px rgba(16,24,40,.06);transition:box-shadow .15s,transform .15s}
.ecw-card:hover{box-shadow:0 6px 18px rgba(16,24,40,.12);transform:translateY(-1px)}
.ecw-card article{display:flex;flex-direction:column;height:100%}
.ecw-media{position:relative;aspect-ratio:16/10;background:linear-gradient(135deg,#dbe5f0,#b9cadd);overflow:hidden;display:grid;place-items:center}
.ecw-media img{position:absolute;inset:0;display:block;width:100%;height:100%;color:transparent}
.ecw-leaf{display:flex;flex-direction:column;align-items:center;min-width:4.2rem;padding:.35rem .7rem .45rem;border-radius:.6rem;background:rgba(255,255,255,.82);color:var(--ecw-ink);box-shadow:0 1px 3px rgba(16,24,40,.12);line-height:1.1}
.ecw-leaf-day{font-size:1.75rem;font-weight:700}
.ecw-leaf-month{font-size:.75rem;font-weight:650;text-transform:uppercase;letter-spacing:.06em;color:var(--ecw-accent)}
.ecw-body{display:flex;flex-direction:column;gap:.3rem;padding:.8rem 1rem 1rem;flex:1}
.ecw-when{margin:0;font-size:.8125rem;font-weight:650;color:var(--ecw-accent);display:flex;flex-wrap:wrap;gap:.45rem}
.ecw-date{display:inline-block}
.ecw-date::first-letter{text-transform:uppercase}
.ecw-title{margin:0;font-size:1.0625rem;line-height:1.3;overflow-wrap:anywhere}
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
.ecw-pager{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:.75rem 1rem;margin-top:1.5rem}
.ecw-pager[hidden]{display:none}
.ecw-button{appearance:none;font:inherit;font-size:.9375rem;color:var(--ecw-accent);background:#fff;border:1px solid var(--ecw-accent);border-radius:.5rem;padding:.45rem 1rem;cursor:pointer}
.ecw-button:hover:not(:disabled){background:var(--ecw-accent);color:#fff}
.ecw-button:disabled{opacity:.4;cursor:default}
.ecw-page{color:var(--ecw-muted);font-size:.875rem}
/* Narrow (a phone, a sidebar; set from the widget's own width): the chips become one row that scrolls sideways, its right edge fading to say so. */
.ecw--narrow .ecw-heading{font-size:1.125rem;margin-bottom:.5rem}
.ecw--narrow .ecw-search-toggle{display:grid;margin-top:.05rem}
.ecw--narrow .ecw-search:not(.ecw-search--open){display:none}
.ecw--narrow .ecw-search{max-width:none;margin-bottom:.5rem}
.ecw--narrow .ecw-suggestion{min-height:2.75rem}
.ecw--narrow .ecw-filters{flex-wrap:nowrap;overflow-x:auto;overscroll-behavior-x:contain;scrollbar-width:none;margin:0 -.25rem .6rem;padding:.3rem .25rem;scroll-padding-inline:1.5rem;-webkit-mask-image:linear-gradient(90deg,#000 calc(100% - 1.75rem),transparent);mask-image:linear-gradient(90deg,#000 calc(100% - 1.75rem),transparent)}
.ecw--narrow .ecw-filters::-webkit-scrollbar{display:none}
.ecw--narrow .ecw-meta{margin-bottom:.6rem}
.ecw--narrow .ecw-list{gap:1rem}
.ecw--narrow .ecw-pager{gap:.5rem}
.ecw--narrow .ecw-button{padding:.45rem .75rem}
@media (prefers-reduced-motion:reduce){.ecw-card,.ecw-list{transition:none}.ecw-card:hover{transform:none}}
`;

/** Below this width of its own box the widget takes its narrow layout. */
export const NARROW_WIDTH_PX = 600;

export function injectStyles(doc: Document): void {
  if (doc.getElementById('ecw-styles')) return;
  const style = doc.createElement('style');
  style.id = 'ecw-styles';
  style.textContent = CSS;
  doc.head.append(style);
}
