// HTML of the sandbox 4D agent portal. Pages are rendered empty and fill themselves from the JSON
// calls (like the real portals the checker drives), so a driver meets real navigation, forms,
// buttons and XHR; element ids are the contract with `Sandbox4dDriver`.
import type { ModeSlug } from './data';

export interface NavItem {
  path: string;
  label: string;
}

export const MODE_PAGES: ReadonlyArray<NavItem & { page: string }> = [
  { path: 'home', label: 'Dashboard', page: 'home' },
  { path: 'bets', label: 'Place Bets', page: 'bets' },
  { path: 'bets/delete', label: 'Delete Bets', page: 'delete-bets' },
  { path: 'fix-bets', label: 'Fix Bets', page: 'fix-bets' },
  { path: 'out-setting3', label: 'Out Setting 3', page: 'out-setting3' },
  { path: 'out-bets/delete', label: 'Delete Bets Out', page: 'delete-out-bets' },
  { path: 'out-setting3/status', label: 'Out Setting 3 Status', page: 'out-status' },
  { path: 'agents', label: 'Agent Setting', page: 'agents' },
];

const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.45 "Segoe UI",Arial,sans-serif;background:#eef1f6;color:#1d2433}
header{display:flex;align-items:center;gap:16px;background:linear-gradient(90deg,#7a0d12,#b3121b);color:#fff;padding:0 20px;height:54px}
header .logo{font-weight:700;font-size:20px;letter-spacing:.5px}header .logo b{background:#ffd54a;color:#7a0d12;border-radius:4px;padding:0 6px;margin-right:6px}
header .modes a{color:#fff;text-decoration:none;padding:4px 12px;border-radius:14px;border:1px solid #ffffff66;margin-right:6px}
header .modes a.on{background:#ffd54a;color:#7a0d12;border-color:#ffd54a;font-weight:600}
header .user{margin-left:auto;display:flex;gap:12px;align-items:center}header button{background:none;border:1px solid #fff;color:#fff;border-radius:4px;padding:3px 10px;cursor:pointer}
.shell{display:flex;min-height:calc(100vh - 54px)}nav{width:210px;background:#1d2433;padding:12px 0}
nav a{display:block;color:#c8d0e0;text-decoration:none;padding:9px 20px;border-left:3px solid transparent}nav a.on,nav a:hover{background:#2a3347;color:#fff;border-left-color:#ffd54a}
main{flex:1;padding:22px 28px}h1{font-size:20px;margin:0 0 16px}.card{background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002;padding:18px 20px;margin-bottom:16px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e3e7ee;padding:7px 10px;text-align:left}th{background:#f5f7fb;font-weight:600}
.pill{display:inline-block;border-radius:10px;padding:1px 10px;font-size:12px}.ok{background:#dff5e3;color:#146c2e}.off{background:#fde2e2;color:#9b1c1c}
button.primary{background:#b3121b;color:#fff;border:0;border-radius:5px;padding:8px 18px;font-weight:600;cursor:pointer}button.primary:disabled{background:#aaa;cursor:not-allowed}
input{border:1px solid #c5cbd6;border-radius:5px;padding:7px 10px;font-size:14px}label{display:inline-block;min-width:90px;color:#555}
.row{margin:8px 0}.banner{display:none;background:#fde2e2;color:#9b1c1c;border:1px solid #f5b5b5;border-radius:6px;padding:10px 14px;margin-bottom:14px}
.muted{color:#7a8397}.result{white-space:pre-wrap;font-family:ui-monospace,monospace;background:#f5f7fb;border-radius:6px;padding:10px;min-height:40px}
.login{max-width:380px;margin:90px auto}.login .card{padding:28px}.login h1{text-align:center}.login input{width:100%}.login button{width:100%;margin-top:12px}
`;

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function doc(title: string, body: string, page: string, mode?: ModeSlug): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} - 4D Agent</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${CSS}</style></head>
<body data-page="${page}" data-mode="${mode ?? ''}">${body}<script src="/assets/app.js"></script></body></html>`;
}

export function loginPage(opts: { next?: string; expired?: boolean }): string {
  // Only same-site paths: '//host' would send the agent elsewhere after login.
  const next = opts.next?.startsWith('/') && !opts.next.startsWith('//') ? opts.next : '/d4/home';
  return doc(
    'Login',
    `<div class="login"><div class="card"><h1><span style="color:#b3121b">4D</span> Agent</h1>
<p class="muted" style="text-align:center">Agent management portal</p>
<div id="login-error" class="banner"${opts.expired ? ' style="display:block"' : ''}>${opts.expired ? 'Session expired, please login again' : ''}</div>
<form id="login-form" data-next="${esc(next)}">
<div class="row"><input id="username" name="username" placeholder="Username" autocomplete="username"></div>
<div class="row"><input id="password" name="password" type="password" placeholder="Password" autocomplete="current-password"></div>
<button id="login-btn" class="primary" type="submit">Sign in</button></form></div></div>`,
    'login',
  );
}

export function modePage(mode: ModeSlug, path: string, user: string): string | undefined {
  const item = MODE_PAGES.find((p) => p.path === path);
  if (!item) return undefined;
  const modeLabel = mode === 'd4' ? 'D4' : 'TT';
  const nav = MODE_PAGES.map(
    (p) => `<a href="/${mode}/${p.path}"${p.path === path ? ' class="on"' : ''}>${p.label}</a>`,
  ).join('');
  const header = `<header><div class="logo"><b>4D</b>Agent</div>
<div class="modes"><a href="/d4/${path}"${mode === 'd4' ? ' class="on"' : ''}>D4</a><a href="/tt/${path}"${mode === 'tt' ? ' class="on"' : ''}>TT</a></div>
<div class="user"><span id="agent-name">${esc(user)}</span><button id="logout-btn" type="button">Logout</button></div></header>`;
  return doc(
    `${item.label} (${modeLabel})`,
    `${header}<div class="shell"><nav>${nav}</nav><main><h1>${item.label} <span class="muted">${modeLabel}</span></h1>
<div id="error-banner" class="banner"></div>${BODIES[item.page]}</main></div>`,
    item.page,
    mode,
  );
}

const BODIES: Record<string, string> = {
  home: `<div class="card"><div class="row"><label>Agent</label><b id="profile-user">…</b></div>
<div class="row"><label>Credit</label><span id="profile-credit">…</span></div><div class="row"><label>Balance</label><span id="profile-balance">…</span></div></div>`,
  bets: `<div class="card"><div class="row"><label>Draw</label><b id="draw-id">…</b> <span id="draw-status" class="pill">…</span></div>
<div class="row"><label>Numbers</label><input id="bet-numbers" placeholder="1234,5678"></div>
<div class="row"><label>Big</label><input id="bet-big" type="number" value="1"> <label>Small</label><input id="bet-small" type="number" value="1"></div>
<button id="place-bet" class="primary" disabled>Place Bet</button></div><div class="card"><b>Result</b><div id="bet-result" class="result"></div></div>`,
  'delete-bets': `<div class="card"><table><thead><tr><th>Bet ID</th><th>Draw</th><th>Number</th><th>Big</th><th>Small</th></tr></thead><tbody id="bets-body"></tbody></table>
<p id="bets-empty" class="muted" style="display:none">No record</p><button id="delete-bets" class="primary" disabled>Delete All</button></div><div class="card"><div id="delete-result" class="result"></div></div>`,
  'fix-bets': `<div class="card"><table><thead><tr><th>Draw ID</th><th>Name</th><th>Status</th></tr></thead><tbody id="draws-body"></tbody></table></div>`,
  'out-setting3': `<div class="card"><p class="muted">Transfers the amounts above the out limits of the current draw.</p><button id="run-out-setting" class="primary">Execute Out Setting 3</button></div>
<div class="card"><b id="out-message"></b><table><thead><tr><th>Number</th><th>Type</th><th>Big limit</th><th>Big to out</th><th>Small limit</th><th>Small to out</th></tr></thead><tbody id="out-body"></tbody></table></div>`,
  'delete-out-bets': `<div class="card"><table><thead><tr><th>Out ID</th><th>Number</th><th>Big</th><th>Small</th></tr></thead><tbody id="bets-body"></tbody></table>
<p id="bets-empty" class="muted" style="display:none">No record</p><button id="delete-bets" class="primary" disabled>Delete All</button></div><div class="card"><div id="delete-result" class="result"></div></div>`,
  'out-status': `<div class="card"><div class="row"><label>Draw</label><span id="status-closed" class="pill">…</span></div>
<div class="row"><label>Fixed bets</label><span id="status-fixed">…</span></div><div class="row"><label>Balance left</label><span id="status-left">…</span></div></div>
<div class="card"><table><thead><tr><th>RID</th><th>Number</th><th>Big</th><th>Small</th><th>To out</th></tr></thead><tbody id="balance-body"></tbody><tfoot id="balance-total"></tfoot></table></div>`,
  agents: `<div class="card"><table><thead><tr><th>Agent</th><th>D4</th><th>MG</th><th>TT</th></tr></thead><tbody id="agents-body"></tbody></table></div>`,
};

/**
 * Browser script shared by all pages; it only renders what the JSON calls answer. Like many real
 * portals, its login form logs what was submitted when the sign-in fails (password included): the
 * checker's evidence must keep that console error without the secret (tests/checker/evidence.test.ts).
 */
export const APP_JS = `
(function(){
  var body=document.body, page=body.dataset.page, mode=body.dataset.mode;
  function $(id){return document.getElementById(id)}
  function showError(t){var b=$('error-banner')||$('login-error'); if(b){b.textContent=t;b.style.display='block'}}
  function api(path,opts){
    opts=opts||{}; var h={'content-type':'application/json'}; var tok=localStorage.getItem('token'); if(tok) h.authorization='Bearer '+tok;
    return fetch(path,{method:opts.method||'GET',headers:h,body:opts.body?JSON.stringify(opts.body):undefined,credentials:'same-origin'})
      .then(function(r){return r.text().then(function(t){
        var j; try{j=JSON.parse(t)}catch(e){showError('Invalid response from server'); throw e}
        if(r.status===401){showError(j.msg||'Session expired'); setTimeout(function(){location.href='/login?expired=1&next='+encodeURIComponent(location.pathname)},1500); throw new Error(j.msg)}
        if(!r.ok||j.code!==0){showError(j.msg||('HTTP '+r.status)); throw new Error(j.msg)}
        return opts.raw?j:j.data})});
  }
  function pill(el,on,text){el.textContent=text;el.className='pill '+(on?'ok':'off')}
  function cell(v){var td=document.createElement('td');td.textContent=v;return td}
  function rows(tb,list,cols){tb.innerHTML='';list.forEach(function(r){var tr=document.createElement('tr');cols(r).forEach(function(v){tr.appendChild(typeof v==='object'?v:cell(v))});tb.appendChild(tr)})}
  function flag(s){var span=document.createElement('td');span.innerHTML='<span class="pill '+(s[0]?'ok':'off')+'">'+(s[0]?'On':'Off')+'</span> <span class="muted">pos '+(s[1][0]?'Y':'N')+' / share '+(s[1][1]?'Y':'N')+'</span>';return span}
  var lo=$('logout-btn'); if(lo) lo.onclick=function(){api('/api/logout',{method:'POST'}).finally(function(){localStorage.removeItem('token');location.href='/login'})};
  var P={
    login:function(){var f=$('login-form'); f.onsubmit=function(e){e.preventDefault(); $('login-btn').disabled=true;
      fetch('/api/login',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({username:$('username').value,password:$('password').value})})
      .then(function(r){return r.text().then(function(t){var j=JSON.parse(t); if(j.code!==0) throw new Error(j.msg); localStorage.setItem('token',j.data.token); location.href=f.dataset.next})})
      .catch(function(e){console.error('Login failed for '+JSON.stringify({username:$('username').value,password:$('password').value})+': '+(e.message||e)); showError(e.message||'Login failed'); $('login-btn').disabled=false})}},
    home:function(){api('/api/'+mode+'/profile').then(function(d){$('profile-user').textContent=d.user;$('profile-credit').textContent=d.credit.toLocaleString();$('profile-balance').textContent=d.balance.toLocaleString()})},
    bets:function(){api('/api/'+mode+'/draw').then(function(d){$('draw-id').textContent=d.draw_id+' '+d.name; pill($('draw-status'),d.open,d.open?'Open':'Closed'); $('place-bet').disabled=!d.open});
      $('place-bet').onclick=function(){$('place-bet').disabled=true; var nums=$('bet-numbers').value.split(',').map(function(s){return s.trim()}).filter(Boolean);
        api('/api/'+mode+'/bets',{method:'POST',body:{numbers:nums,big:Number($('bet-big').value),small:Number($('bet-small').value)}})
        .then(function(d){$('bet-result').textContent='Placed '+d.bets.length+' bet(s): '+d.bet_ids.join(', ')}).catch(function(e){$('bet-result').textContent='Failed: '+e.message}).finally(function(){$('place-bet').disabled=false})}},
    'delete-bets':function(){listAndDelete('/api/'+mode+'/bets',function(b){return [b.bet_id,b.draw_id,b.number,b.big,b.small]},'bet_id')},
    'delete-out-bets':function(){listAndDelete('/api/'+mode+'/out-bets',function(b){return [b.out_id,b.number,b.big,b.small]},'out_id')},
    'fix-bets':function(){api('/api/'+mode+'/draw-settings').then(function(list){rows($('draws-body'),list,function(d){var td=document.createElement('td');td.innerHTML='<span class="pill '+(d.status[0]?'ok':'off')+'">'+d.status[1]+'</span>';return [d.draw_id,d.name,td]})})},
    'out-setting3':function(){$('run-out-setting').onclick=function(){$('run-out-setting').disabled=true; api('/api/'+mode+'/out-setting3',{method:'POST',raw:true}).then(function(d){$('out-message').textContent=d.message;
      rows($('out-body'),d.data.Msg,function(m){return [m.Number,m.Type,m.BigOutLimit,m.BigToOut,m.SmallOutLimit,m.SmallToOut]})}).finally(function(){$('run-out-setting').disabled=false})}},
    'out-status':function(){api('/api/'+mode+'/out-setting3/status').then(function(d){pill($('status-closed'),!d.is_closed,d.is_closed?'Closed':'Open');$('status-fixed').textContent=d.fixed_bets;$('status-left').textContent=d.balance_left.toLocaleString();
      rows($('balance-body'),d.balance_stat,function(r){return [r.rid,r.number,r.big,r.small,r.to_out]}); $('balance-total').innerHTML='<tr><th>Total</th><th></th>'+d.balance_total.slice(0,3).map(function(v){return '<th>'+v+'</th>'}).join('')+'</tr>'})},
    agents:function(){api('/api/'+mode+'/agents').then(function(list){rows($('agents-body'),list,function(a){return [a.agent,flag(a.D4),flag(a.MG),flag(a.TT)]})})}
  };
  function listAndDelete(url,cols,key){var ids=[]; api(url).then(function(list){ids=list.map(function(b){return b[key]}); rows($('bets-body'),list,cols); $('bets-empty').style.display=list.length?'none':'block'; $('delete-bets').disabled=!list.length});
    $('delete-bets').onclick=function(){$('delete-bets').disabled=true; api(url+'/delete',{method:'POST',body:{ids:ids}}).then(function(d){$('delete-result').textContent='Deleted '+d.deleted+' record(s)'; $('bets-body').innerHTML=''; $('bets-empty').style.display='block'}).catch(function(e){$('delete-result').textContent='Failed: '+e.message})}}
  if(P[page]) P[page]();
})();
`;
