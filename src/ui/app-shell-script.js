// The app shell's own script (see src/ui/app-shell.ts), inlined after the shell in index.html and allowed by its hash
// in the Content-Security-Policy (vite.config.ts): it runs as the page is parsed, before the first paint, so the shell
// is painted in the chosen theme, the route's layout and the browser's language; and it keeps the last click on the
// shell's buttons, which the app does once it runs (main.tsx); framed by another page, it puts one line in the shell's
// place and nothing else. Plain script: nothing imports it, nothing bundles it.
(function () {
  var page = document.documentElement;
  try {
    var theme = localStorage.getItem('parley-theme');
    if (theme === 'light' || theme === 'dark') page.dataset.theme = theme;
  } catch (error) {
    // no storage (a locked-down browser): the system's theme
  }
  var shell = document.querySelector('.app-shell');
  if (!shell) return;
  var chinese = navigator.language.toLowerCase().indexOf('zh') === 0;
  if (chinese) page.lang = 'zh-CN';
  var framed;
  try {
    framed = window.top !== window.self;
  } catch (error) {
    framed = true;
  }
  if (framed) {
    // Another page frames Parley (clickjacking: its own button drawn over our Allow): no control of ours is ever
    // shown there, only a link to Parley in a tab of its own. boot.ts starts neither the worker nor the app.
    var template = document.querySelector('.framed-refusal-template');
    var refusal = template ? template.content.firstElementChild.cloneNode(true) : document.createElement('p');
    var link = refusal.querySelector('a');
    if (link) {
      link.href = location.href;
      if (chinese) link.textContent = link.dataset.zh;
    }
    shell.replaceWith(refusal);
    return;
  }
  var path = location.hash.replace(/^#/, '');
  // As parseRoute (hash-route.ts) decides; tests/component/app-shell-script.test.tsx holds the two in step.
  var conversation = /^\/c\/([^/]+)$/.exec(path);
  var route = /^\/settings(\?tool=[^&]+)?$/.test(path) ? 'settings' : 'home';
  if (conversation) {
    try {
      decodeURIComponent(conversation[1]);
      route = 'conversation';
    } catch (error) {
      // an id that cannot be read: the app goes home
    }
  }
  shell.dataset.route = route;
  shell.querySelector('.nav-toggle').setAttribute('aria-expanded', String(route === 'home'));
  if (chinese) {
    shell.querySelectorAll('[data-zh]').forEach(function (element) { element.textContent = element.dataset.zh; });
    shell.querySelectorAll('[data-zh-aria-label]').forEach(function (element) { element.setAttribute('aria-label', element.dataset.zhAriaLabel); });
    shell.querySelectorAll('[data-zh-placeholder]').forEach(function (element) { element.placeholder = element.dataset.zhPlaceholder; });
  }
  shell.addEventListener('click', function (event) {
    var button = event.target.closest('[data-shell-action]');
    if (button) shell.dataset.action = button.dataset.shellAction;
  });
})();
