/**
 * The main link of a transactional email: the one a tester would click to
 * reset, confirm, verify, sign in or accept, or nothing. A link counts when
 * its text says so, or, when its text is its own address or "click here",
 * when the words before it or its address say so; a sign-in link in a
 * newsletter's footer does not, since the email is not about signing in.
 * Pure: the subject, the body's text and its links (html-text.ts) in.
 */
import type { EmailLink } from './html-text.ts';

/** What the main button of a transactional email says. */
const ACTION =
  /\b(reset|set (up )?(a |your )?(new )?password|change (my |your )?password|choose a (new )?password|verify|verification|confirm|activate|sign[ -]?in|log[ -]?in|login|magic link|accept( the)? invit|join (the )?(team|workspace|organi[sz]ation)|unlock|complete (your )?(registration|sign[ -]?up)|validate)|zurücksetzen|passwort (ändern|festlegen|vergeben)|bestätig|verifizier|aktivier|anmelden|einloggen|einladung annehmen|freischalten|réinitialiser|confirmer|vérifier|activer|se connecter|connexion|accepter l['’]invitation|valider|restablecer|confirmar|verificar|activar|iniciar sesión|acceder|\bentrar\b|aceptar (la )?invitación|redefinir|ativar|acessar|fazer login|aceitar convite|reimposta|conferma|verifica|attiva|accedi|accetta l['’]invito|wachtwoord (opnieuw instellen|herstellen|wijzigen)|bevestig|verifiëren|activeren|inloggen|aanmelden|uitnodiging accepteren|zresetuj|resetuj|ustaw (nowe )?hasło|potwierdź|zweryfikuj|aktywuj|zaloguj|akceptuj zaproszenie|сбросить|восстановить|подтверд|активир|войти|принять приглашение|確認|認証|リセット|再設定|有効化|ログイン|确认|验证|驗證|重置|重設|激活|啟用|登录|登入|接受邀请|인증|확인|재설정|활성화|로그인|초대 수락/iu;

/** What an action link's address says when its text does not. */
const ACTION_URL = /reset|password|passwort|verif|confirm|activat|magic|log_?in|sign_?in|sign-in|signin|\bauth\b|unlock|invit|accept|\botp\b|\brp\b/i;

/** Link text that says only "a link is here". */
const GENERIC = /^(click here|here|this link|link|click|tap here|the link below|follow this link|button|hier|ici|aquí|aqui|qui|hier klicken|cliquez ici|haz clic aquí|clique aqui|clicca qui|klik hier|kliknij tutaj|здесь|нажмите здесь|こちら|ここ|点击这里|点击此处|여기)$/iu;

/** Links that are never the point of the email. */
const FURNITURE =
  /unsubscribe|abmelden|abbestellen|désabonner|désinscri|desuscribir|darse de baja|cancelar inscrição|annulla iscrizione|afmelden|wypisz|отписаться|配信停止|退订|수신거부|preferences|privacy|datenschutz|confidentialit|privacidad|privacidade|terms|help|support|contact|facebook|twitter|\/\/(www\.)?x\.com|instagram|linkedin|youtube|tiktok|apps\.apple|play\.google|mailto:|tel:|view (it |this email )?in (your |a )?browser|im browser|dans (votre|le) navigateur|en (tu|el) navegador|no navegador|nel browser|in je browser|w przeglądarce|в браузере|ブラウザ|浏览器|브라우저/iu;

/** Emails about buying, shipping or marketing: a sign-in link in them is furniture. */
const COMMERCE = /%|digest|weekly|issue #|receipt|\border\b|invoice|\bsale\b|% off|promo|coupon|discount|shipped|delivery|newsletter|rechnung|bestellung|angebot|commande|facture|pedido|factura|oferta|encomenda|ordine|fattura|bestelling|factuur|zamówien|faktura|заказ|注文|领取|订单|发票|주문|영수증/iu;

/** How far into the text an email says what it is about. */
const OPENING_CHARS = 300;

/** A link offered in case the email was not wanted ("If this wasn't you, reset your password"): not its point. */
const IF_NOT_YOU =
  /if (this|it) (was ?n['’]?t|was not) you|if you did ?n['’]?t|if you did not|not you\?|wenn sie das nicht|falls sie (das|dies) nicht|si ce n['’]est pas vous|si vous n['’]avez pas|si no (fuiste|has sido) tú|si no solicitaste|se não foi você|se non sei stato|als jij dit niet|jeśli to nie ty|если это были не вы|心当たりがない|如果不是您|본인이 아닌/iu;

/** How much a link says it is the action; 0: not at all. */
function score(link: EmailLink, subject: string): number {
  if (!/^https?:\/\//i.test(link.url) || !URL.canParse(link.url)) return 0;
  const text = link.text.normalize('NFKC');
  if (FURNITURE.test(text) || FURNITURE.test(link.url)) return 0;
  const textIsAddress = /^https?:\/\//i.test(text) || text === '' || GENERIC.test(text.replace(/[.!»›→>]+$/u, '').trim());
  if (IF_NOT_YOU.test(`${link.before ?? ''} ${text}`)) return 0;
  const url = new URL(link.url);
  // A button whose words say nothing of an action ("Yes, subscribe me to this list.") counts when its address and the subject both do.
  if (!textIsAddress) return ACTION.test(text) ? 3 : ACTION_URL.test(url.pathname + url.search) && ACTION.test(subject) ? 1 : 0;
  if (link.before && ACTION.test(link.before.normalize('NFKC')) && !FURNITURE.test(link.before)) return 2;
  return ACTION_URL.test(url.pathname + url.search) ? 1 : 0;
}

/**
 * The email's call to action: the link that says it best (its text, else the
 * words before it, else its address), the first of those in the body; null
 * when the email is not about an action or no link says it is one.
 */
export function findActionLink(subject: string, text: string, links: EmailLink[]): EmailLink | null {
  const about = `${subject}\n${text.slice(0, OPENING_CHARS)}`.normalize('NFKC');
  if (!ACTION.test(about)) return null;
  const commerce = COMMERCE.test(subject) && !ACTION.test(subject);
  let best: { link: EmailLink; score: number } | null = null;
  for (const link of links) {
    const value = score(link, subject);
    if (value > (best?.score ?? 0)) best = { link, score: value };
  }
  if (!best || commerce) return null;
  return best.link;
}
