// The reference page's one script, served as a file (the portal's CSP allows no inline script): it sends a "try it"
// form as a real request to {base} with the page's token, and shows the answer's status, headers and body (and it
// closes the table of contents on a narrow screen).

/**
 * Plain ES2017 for any browser the portal serves; it writes only textContent (never HTML), so nothing in an answer can
 * become markup. Without it the page is complete, and GET forms without path parameters still send themselves.
 */
export const REFERENCE_SCRIPT = `'use strict';
(function () {
  // The table of contents comes first on a narrow screen: closed there, it does not push the page down.
  var toc = document.querySelector('.ref-toc details');
  if (toc && window.matchMedia('(max-width: 63.99rem)').matches) toc.open = false;
  var token = document.getElementById('try-token');
  var forms = document.querySelectorAll('form.try-form');
  Array.prototype.forEach.call(forms, function (form) {
    var button = form.querySelector('button[type=submit]');
    if (button) button.disabled = false;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      send(form, button);
    });
  });

  function send(form, button) {
    var url = form.getAttribute('data-url');
    var method = form.getAttribute('data-method');
    var query = new URLSearchParams();
    var headers = {};
    Array.prototype.forEach.call(form.querySelectorAll('[data-in]'), function (input) {
      var value = input.value.trim();
      var name = input.getAttribute('data-name');
      var where = input.getAttribute('data-in');
      if (value === '') return;
      if (where === 'path') url = url.split('{' + name + '}').join(encodeURIComponent(value));
      else if (where === 'query') query.append(name, value);
      else if (where === 'header') headers[name] = value;
    });
    if (form.hasAttribute('data-token') && token && token.value.trim() !== '')
      headers.Authorization = 'Bearer ' + token.value.trim();
    var init = { method: method, headers: headers, credentials: 'omit', cache: 'no-store' };
    var body = form.querySelector('[data-body]');
    if (body && body.value.trim() !== '') {
      headers['Content-Type'] = form.querySelector('[data-content-type]').value;
      init.body = body.value;
    }
    var target = url + (query.toString() ? '?' + query.toString() : '');
    var result = form.querySelector('.try-result');
    var started = Date.now();
    if (button) button.disabled = true;
    result.hidden = false;
    result.textContent = 'Sending ' + method + ' ' + target + ' …';
    fetch(target, init)
      .then(function (answer) {
        return answer.text().then(function (text) {
          show(result, method, target, answer, text, Date.now() - started);
        });
      })
      .catch(function (error) {
        result.textContent = 'The request failed before an answer came: ' + error.message;
      })
      .then(function () {
        if (button) button.disabled = false;
      });
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function show(result, method, target, answer, text, took) {
    result.textContent = '';
    var line = element('p', 'try-status');
    line.appendChild(element('span', 'status s' + String(answer.status).charAt(0), String(answer.status)));
    line.appendChild(document.createTextNode(' ' + answer.statusText + ' · ' + method + ' ' + target + ' · ' + took + ' ms'));
    result.appendChild(line);
    var head = [];
    answer.headers.forEach(function (value, name) {
      head.push(name + ': ' + value);
    });
    result.appendChild(element('p', 'example-label', 'Headers'));
    result.appendChild(element('pre', '', head.join('\\n')));
    result.appendChild(element('p', 'example-label', 'Body'));
    var shown = text;
    try {
      if (text) shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch (notJson) {
      shown = text;
    }
    result.appendChild(element('pre', 'try-body', shown || '(empty)'));
    result.focus();
  }
})();
`;
