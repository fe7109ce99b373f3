/**
 * The inline CSS and script of every HTML page (no external assets). Colours meet WCAG AA
 * contrast on their backgrounds in both schemes (body text ≥ 12:1, muted text ≥ 6:1,
 * links ≥ 5.5:1).
 */

export const PAGE_CSS = `
:root{--fg:#1b1f24;--muted:#4f5863;--bg:#fff;--panel:#f5f7f9;--border:#d3d9df;--accent:#0b57c4;--mark:#fff4c2;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#a4aeb9;--bg:#0f1419;--panel:#171d24;--border:#323b45;--accent:#6cb0ff;--mark:#3b3413}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;overflow-wrap:break-word;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent);text-underline-offset:.15em}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-10000px;top:auto}
.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem 1rem;z-index:1}
.wrap{max-width:62rem;margin:0 auto;padding:0 1.25rem}
header.site{border-bottom:1px solid var(--border);padding:1.5rem 0 1rem}
.brand{margin:0;font-weight:600;letter-spacing:.02em;color:var(--muted);font-size:.9rem;text-transform:uppercase}
h1{font-size:clamp(1.6rem,4vw,2.3rem);line-height:1.2;margin:.4rem 0 .6rem}
h2{font-size:1.35rem;line-height:1.3;margin:0 0 .4rem}
.lede{font-size:1.1rem;margin:0 0 .8rem;max-width:48rem}
.meta{color:var(--muted);margin:0 0 .6rem}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.4rem 1.1rem}
nav.toc{margin:1.25rem 0 0}
nav.toc h2{font-size:1rem;margin:0 0 .3rem}
main{padding:1rem 0 2rem}
section.metric{border-top:1px solid var(--border);padding:1.5rem 0 .5rem}
section.metric:first-of-type{border-top:0}
.definition{max-width:48rem;margin:0 0 1rem}
figure.trend{margin:0 0 1rem;padding:.75rem .75rem .25rem;background:var(--panel);border-radius:.5rem}
figure.trend figcaption{color:var(--muted);font-size:.9rem}
svg.trend{display:block;width:100%;max-width:42rem;height:auto;margin:0 auto}
svg.trend .line{fill:none;stroke:var(--accent);stroke-width:2.5;stroke-linejoin:round;stroke-linecap:round}
svg.trend .dot{fill:var(--accent)}
svg.trend .grid{stroke:var(--border);stroke-width:1}
svg.trend text{fill:var(--muted);font:13px system-ui,sans-serif}
svg.trend text.last{fill:var(--fg);font-weight:600}
.table-wrap{overflow-x:auto;margin:0 0 .5rem;position:relative}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:0 0 .4rem}
th,td{padding:.5rem .6rem;border-bottom:1px solid var(--border);text-align:right;vertical-align:top}
thead th{font-size:.85rem;color:var(--muted);font-weight:600;border-bottom-width:2px}
th[scope=row],thead th:first-child{text-align:left;font-weight:500;overflow-wrap:break-word;word-break:break-word;min-width:9rem;width:40%}
tbody tr:target{background:var(--mark)}
td.suppressed{color:var(--muted);font-style:italic}
td.embed-link{white-space:nowrap}
details.hidden-cells{margin:.25rem 0 .75rem;color:var(--muted);font-size:.95rem}
details.hidden-cells>summary{cursor:pointer;padding:.2rem 0}
.hidden-heading{margin:.5rem 0 .2rem;font-weight:600}
ul.hidden-list{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem .9rem}
ul.hidden-list li:target{background:var(--mark)}
.method{color:var(--muted);font-size:.9rem;margin:.25rem 0 .75rem}
details.embeds{margin:0 0 1rem;border:1px solid var(--border);border-radius:.5rem;padding:.5rem .9rem}
details.embeds>summary{cursor:pointer;font-weight:600;padding:.2rem 0}
.embed{padding:.75rem 0;border-top:1px solid var(--border)}
.embed:first-of-type{border-top:0}
.embed h3{font-size:1rem;margin:0 0 .25rem;overflow-wrap:anywhere}
.embed p{margin:.25rem 0;overflow-wrap:anywhere}
.embed label{display:block;font-size:.85rem;color:var(--muted);margin:.4rem 0 .2rem}
.embed textarea{display:block;width:100%;min-height:5.5rem;resize:vertical;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--fg);background:var(--panel);border:1px solid var(--border);border-radius:.35rem;padding:.5rem}
.embed button{margin-top:.4rem;font:inherit;font-size:.9rem;padding:.3rem .8rem;border-radius:.35rem;border:1px solid var(--accent);background:var(--bg);color:var(--accent);cursor:pointer}
.embed button:hover{background:var(--panel)}
.cite{color:var(--muted);font-size:.9rem}
footer.site{border-top:1px solid var(--border);padding:1.25rem 0 2rem;color:var(--muted);font-size:.95rem}
footer.site p{margin:.3rem 0;max-width:48rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:40rem){th,td{padding:.45rem .4rem}thead th{font-size:.8rem}svg.trend text{font-size:19px}figure.trend{padding:.5rem .4rem .25rem}th[scope=row],thead th:first-child{min-width:7rem}caption{position:sticky;left:0}}
`.trim();

/**
 * Copy buttons (clipboard API, falling back to select + execCommand) and opening the
 * collapsed embed list when a link points into it. Works without it: textareas are selectable.
 */
export const PAGE_SCRIPT = `
(function(){
var status=document.getElementById('copy-status');
function copied(button){var label=button.getAttribute('data-label')||button.textContent;button.setAttribute('data-label',label);button.textContent='Copied';if(status)status.textContent='Embed code copied';setTimeout(function(){button.textContent=label},1500)}
function fallback(area,button){area.focus();area.select();try{document.execCommand('copy');copied(button)}catch(e){}}
document.addEventListener('click',function(event){
var button=event.target.closest?event.target.closest('button[data-copy]'):null;if(!button)return;
var area=document.getElementById(button.getAttribute('data-copy'));if(!area)return;
if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(area.value).then(function(){copied(button)},function(){fallback(area,button)})}else{fallback(area,button)}
});
function reveal(){var id=location.hash.slice(1);if(!id)return;try{id=decodeURIComponent(id)}catch(e){return}
var target=document.getElementById(id);var details=target&&target.closest?target.closest('details'):null;
if(details&&!details.open){details.open=true;target.scrollIntoView()}}
window.addEventListener('hashchange',reveal);reveal();
})();
`.trim();
