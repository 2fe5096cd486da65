import { launchBrowser, openPage, login, screenshot, submitLogin } from './helpers.ts';
const b = await launchBrowser();
const page = await openPage(b, 'http://127.0.0.1:3177');
await login(page, 'admin', 'admin-pass-2');
await page.goto('/super/users/users');
await page.waitForTimeout(2500);
const table = page.getByRole('table', { name: 'Users' });
console.log(
  await table.count(),
  await table.getByRole('row').count(),
  await table.getByRole('row', { name: /admin/ }).count(),
);
const p2 = await openPage(b, 'http://127.0.0.1:3177');
await p2.goto('/auth/login');
for (let i = 1; i <= 4; i++) {
  await submitLogin(p2, 'ghost' + Date.now().toString(36).slice(0, 3), 'wrong-pass-' + i);
  await p2.waitForTimeout(500);
  console.log(
    i,
    await p2.getByRole('img', { name: 'Captcha' }).count(),
    await p2.evaluate(() => document.body.innerText.replace(/\n/g, ' | ')),
  );
}
await screenshot(p2, 'explore-captcha');
await b.close();
