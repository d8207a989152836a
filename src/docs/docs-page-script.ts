/**
 * The docs page's script (plain browser JavaScript, no library: the layout
 * was computed by dagre at generate time). It draws the lineage graph as
 * SVG, pans and zooms it, and shows a node's details when it is clicked.
 */
export const DOCS_PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var site = JSON.parse(document.getElementById('docs-data').textContent);
  var byId = {};
  site.nodes.forEach(function (n) { byId[n.id] = n; });
  var NS = 'http://www.w3.org/2000/svg';
  var svg = document.getElementById('graph');
  // 1:1 scale when the graph fits, else the whole graph in view.
  var view = { x: 0, y: 0, w: Math.max(site.width, svg.clientWidth || 400), h: Math.max(site.height, svg.clientHeight || 300) };
  var selected = null;

  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function h(tag, text, parent, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    if (parent) parent.appendChild(e);
    return e;
  }
  function applyView() { svg.setAttribute('viewBox', view.x + ' ' + view.y + ' ' + view.w + ' ' + view.h); }

  var edgeLayer = el('g', { 'class': 'edges' }, svg);
  var nodeLayer = el('g', { 'class': 'nodes' }, svg);
  site.edges.forEach(function (e) {
    var d = e.points.map(function (p, i) { return (i ? 'L' : 'M') + p.x + ' ' + p.y; }).join(' ');
    el('path', { d: d, 'class': 'edge', 'data-from': e.from, 'data-to': e.to, 'marker-end': 'url(#arrow)' }, edgeLayer);
  });
  site.nodes.forEach(function (n) {
    var g = el('g', { 'class': 'node kind-' + n.kind + (n.resourceType === 'test' ? ' test' : ''), 'data-id': n.id, 'data-name': n.name, 'data-kind': n.kind, transform: 'translate(' + (n.x - n.width / 2) + ',' + (n.y - n.height / 2) + ')' }, nodeLayer);
    el('rect', { width: n.width, height: n.height, rx: 6, ry: 6 }, g);
    var label = el('text', { x: n.width / 2, y: n.height / 2 + 4, 'text-anchor': 'middle' }, g);
    var fits = Math.floor((n.width - 14) / (n.resourceType === 'test' ? 6.2 : 7.2));
    label.textContent = n.name.length > fits ? n.name.slice(0, fits - 1) + '\u2026' : n.name;
    var title = el('title', {}, g);
    title.textContent = n.kind + ' ' + n.name;
    g.addEventListener('click', function (ev) { ev.stopPropagation(); select(n.id); });
  });
  applyView();

  function lineage(id) {
    var keep = {}; keep[id] = true;
    var walk = function (start, dir) {
      var todo = [start];
      while (todo.length) {
        var cur = todo.pop();
        site.edges.forEach(function (e) {
          var next = dir > 0 ? (e.from === cur ? e.to : null) : (e.to === cur ? e.from : null);
          if (next && !keep[next]) { keep[next] = true; todo.push(next); }
        });
      }
    };
    walk(id, 1); walk(id, -1);
    return keep;
  }

  function section(parent, title) { var s = h('section', null, parent); h('h3', title, s); return s; }
  function sqlBlock(parent, title, sql, cls) { if (!sql) return; var s = section(parent, title); h('pre', sql, s, 'sql ' + cls); }
  function table(parent, headers, rows) {
    var t = h('table', null, parent); var tr = h('tr', null, h('thead', null, t));
    headers.forEach(function (x) { h('th', x, tr); });
    var body = h('tbody', null, t);
    rows.forEach(function (r) { var row = h('tr', null, body); r.forEach(function (c) { h('td', c === null || c === undefined ? '' : c, row); }); });
    return t;
  }

  function show(n) {
    var panel = document.getElementById('details');
    panel.textContent = '';
    var head = h('div', null, panel, 'title');
    h('span', n.kind, head, 'badge kind-' + n.kind);
    h('h2', n.name, head);
    h('div', n.id + ' \u2014 ' + n.path, panel, 'path');
    // Descriptions (docs blocks included) are shown as written, as text: nothing in them runs.
    if (n.description) h('div', n.description, panel, 'description');
    if (n.lastRun) {
      var lr = section(panel, 'Last run');
      var run = n.lastRun;
      h('p', run.status + (run.mode && run.mode !== 'test' ? ' (' + run.mode + ')' : '') + (run.completedAt ? ' at ' + run.completedAt : '') +
        (run.mode !== 'test' ? ' \u2014 ' + run.rowsInserted + ' rows inserted, ' + run.rowsDeleted + ' deleted' : ''), lr, 'status status-' + run.status);
      if (run.reason) h('p', 'why: ' + run.reason, lr);
      if (run.message) h('pre', run.message, lr);
    } else if (n.resourceType !== 'source') {
      h('p', 'never run in this warehouse', section(panel, 'Last run'), 'muted');
    }
    if (n.columns.length) {
      var cs = section(panel, 'Columns');
      table(cs, ['column', 'type', 'description', 'tests'], n.columns.map(function (c) { return [c.name, c.type, c.description, c.tests.join(', ')]; })).className = 'columns';
    }
    if (n.tests.length) {
      var ts = section(panel, 'Tests');
      var ul = h('ul', null, ts, 'tests');
      n.tests.forEach(function (t) {
        var li = h('li', null, ul);
        var a = h('a', t.name, li); a.href = '#'; a.addEventListener('click', function (ev) { ev.preventDefault(); select(t.id); });
        h('span', t.status ? ' ' + t.status.toUpperCase() : ' not run', li, 'status status-' + (t.status || 'none'));
      });
    }
    if (n.kind === 'snapshot') showHistory(panel, n.history);
    if (n.partitions) {
      var ps = section(panel, 'Partitions: last written when and why');
      if (!n.partitions.length) h('p', 'none recorded in the run ledger yet', ps, 'muted');
      else table(ps, ['partition', 'written at', 'mode', 'as of', 'why'], n.partitions.map(function (p) {
        return [p.partition, p.writtenAt, p.mode, p.asOf, [p.runReason, p.planReason].filter(Boolean).join(' \u2014 ')];
      })).className = 'partitions';
    }
    if (n.stale) {
      var ss = section(panel, 'Stale partitions' + (n.stale.asOf ? ' (as of ' + n.stale.asOf + ')' : ''));
      if (n.stale.unavailable) h('p', 'not available: ' + n.stale.unavailable, ss, 'muted');
      else if (!n.stale.partitions.length) h('p', 'none: every partition has seen all rows landed for it', ss, 'status status-pass');
      else h('p', n.stale.partitions.join(', '), ss, 'stale');
    }
    var cfg = section(panel, 'Config');
    h('pre', JSON.stringify(n.config, null, 2), cfg, 'config');
    sqlBlock(panel, 'Raw SQL', n.rawSql, 'raw-sql');
    sqlBlock(panel, 'Compiled SQL', n.compiledSql, 'compiled-sql');
  }

  // A snapshot's versions of one key: pick the key, see each version's validity and values.
  function showHistory(panel, hist) {
    var hs = section(panel, 'History by key');
    if (!hist) { h('p', 'not built in this warehouse yet: run mini-dbt snapshot, then docs generate', hs, 'muted'); return; }
    if (hist.unavailable) { h('p', 'not available: ' + hist.unavailable, hs, 'muted'); return; }
    if (!hist.keys.length) { h('p', 'the snapshot table has no rows', hs, 'muted'); return; }
    h('p', hist.totalKeys + ' keys (' + hist.keyColumns.join(', ') + ')' + (hist.totalKeys > hist.keys.length
      ? '; the first ' + hist.keys.length + ' are here (at most ' + hist.limit + '), keys with more than one version first'
      : '; keys with more than one version first'), hs, 'muted history-count');
    var label = h('label', 'key ', hs);
    var pick = h('select', null, label, 'history-key');
    hist.keys.forEach(function (k, i) {
      var o = h('option', k.key + ' (' + k.versions.length + (k.versions.length === 1 ? ' version)' : ' versions)'), pick);
      o.value = String(i);
    });
    var holder = h('div', null, hs);
    function draw() {
      holder.textContent = '';
      var k = hist.keys[Number(pick.value)];
      var headers = [hist.validFrom, hist.validTo].concat(hist.deletedColumn ? [hist.deletedColumn] : [], hist.columns);
      table(holder, headers, k.versions.map(function (v) {
        return [v.validFrom, v.validTo === null ? 'current' : v.validTo].concat(hist.deletedColumn ? [v.deleted] : [], v.values);
      })).className = 'history';
    }
    pick.addEventListener('change', draw);
    draw();
  }

  function select(id) {
    var n = byId[id];
    if (!n) return;
    selected = id;
    var keep = lineage(id);
    Array.prototype.forEach.call(nodeLayer.childNodes, function (g) {
      var nid = g.getAttribute('data-id');
      g.classList.toggle('selected', nid === id);
      g.classList.toggle('dim', !keep[nid]);
    });
    Array.prototype.forEach.call(edgeLayer.childNodes, function (p) {
      p.classList.toggle('dim', !(keep[p.getAttribute('data-from')] && keep[p.getAttribute('data-to')]));
    });
    show(n);
    if (location.hash !== '#' + id) history.replaceState(null, '', '#' + id);
  }
  function clearSelection() {
    selected = null;
    Array.prototype.forEach.call(svg.querySelectorAll('.dim, .selected'), function (e) { e.classList.remove('dim'); e.classList.remove('selected'); });
  }
  svg.addEventListener('click', clearSelection);

  document.getElementById('show-tests').addEventListener('change', function (ev) {
    document.body.classList.toggle('hide-tests', !ev.target.checked);
  });
  document.getElementById('search').addEventListener('input', function (ev) {
    var q = ev.target.value.toLowerCase();
    Array.prototype.forEach.call(nodeLayer.childNodes, function (g) {
      g.classList.toggle('match', q !== '' && g.getAttribute('data-name').toLowerCase().indexOf(q) >= 0);
    });
  });
  document.getElementById('search').addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter') return;
    var hit = svg.querySelector('.node.match');
    if (hit) select(hit.getAttribute('data-id'));
  });

  var drag = null;
  svg.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y }; });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    var scale = view.w / svg.clientWidth;
    view.x = drag.vx - (ev.clientX - drag.x) * scale;
    view.y = drag.vy - (ev.clientY - drag.y) * scale;
    applyView();
  });
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var f = ev.deltaY > 0 ? 1.1 : 1 / 1.1;
    var r = svg.getBoundingClientRect();
    var px = view.x + (ev.clientX - r.left) / r.width * view.w;
    var py = view.y + (ev.clientY - r.top) / r.height * view.h;
    view.x = px - (px - view.x) * f; view.y = py - (py - view.y) * f; view.w *= f; view.h *= f;
    applyView();
  }, { passive: false });

  if (site.overview) {
    var front = document.getElementById('details');
    var hint = front.textContent;
    front.textContent = '';
    h('h2', 'Overview', front);
    h('div', site.overview, front, 'description overview');
    h('p', hint, front, 'muted');
  }

  var first = decodeURIComponent(location.hash.slice(1));
  if (byId[first]) select(first);
  window.miniDbtDocs = { select: select, site: site };
})();
`;
