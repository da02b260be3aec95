/**
 * The words that label a number in transactional mail, in the languages the
 * finder reads (English, German, French, Spanish, Portuguese, Italian, Dutch,
 * Polish, Russian, Japanese, Chinese, Korean). Data only: code-finder.ts and
 * action-link.ts decide with them.
 *
 * A phrase's spaces match any run of spaces or dashes; a phrase that starts or
 * ends with a letter of a spaced script matches whole words only. A leading
 * `*` lets the phrase end a longer word (German and Dutch compounds:
 * "Bestätigungscode" is a "…code").
 */

/** What a label says about the number after it. */
export type CueKind =
  /** A one-time code's own name: "verification code", "Bestätigungscode", "验证码". */
  | 'strong'
  /** A word any number may wear: "code", "Code", "código"; trusted only where the email is about signing in. */
  | 'weak'
  /** Labels of numbers that are not the code: promo codes, order and card numbers, postcodes, phones. */
  | 'decoy'
  /** "Passcode", "PIN": a code, unless the email is a meeting's invitation. */
  | 'meeting'
  /** "Confirmation code": a code, unless the email is a booking's. */
  | 'booking';

const DECOY = [
  // English
  'promo code', 'promotional code', 'promo', 'coupon', 'coupon code', 'discount', 'discount code', 'voucher', 'gift card', 'gift code', 'redeem',
  'referral code', 'invite code', 'auth code', 'authorization code', 'authorisation code', 'approval code', 'merchant', 'merchant id', 'terminal',
  'terminal id', 'TID', 'order', 'order number', 'order no', 'order id', 'invoice', 'invoice number', 'receipt', 'receipt number',
  'reference', 'ref', 'tracking', 'tracking number', 'customer number', 'customer id', 'account number', 'member number', 'membership number',
  'card number', 'card ending', 'ending in', 'policy number', 'booking reference', 'reservation number', 'ticket', 'ticket number', 'case number',
  'serial number', 'license key', 'licence key', 'product key', 'activation key', 'SKU', 'item number', 'postcode', 'post code', 'zip', 'zip code',
  'phone', 'tel', 'fax', 'call', 'meeting id', 'conference id', 'webinar id', 'dial-in', 'dial in', 'suite', 'flight', 'seat', 'PNR', 'VAT',
  // German
  '*rabattcode', 'rabatt', '*gutschein', '*gutscheincode', 'aktionscode', 'promocode', '*genehmigungsnummer', '*genehmigungscode', 'autorisierungscode',
  '*händlernummer', 'händler', 'terminal-id', '*bestellnummer', 'bestellung', '*rechnungsnummer', 'rechnung', '*kundennummer', 'auftragsnummer',
  '*sendungsnummer', 'plz', 'postleitzahl', 'telefon', 'vorgangsnummer', '*buchungsnummer', 'aktenzeichen', 'mitgliedsnummer', 'HRB', 'USt-IdNr',
  'steuernummer', 'IBAN', 'BIC', 'lizenzschlüssel',
  // French
  'code promo', 'code de réduction', 'code avantage', 'bon de réduction', 'réduction', 'numéro de commande', 'commande', 'facture', 'numéro de facture',
  'numéro client', 'numéro de suivi', "code d'autorisation", 'code postal', 'téléphone', 'tél', 'SIRET', 'SIREN', 'réservation',
  // Spanish
  'código promocional', 'código de descuento', 'cupón', 'descuento', 'código de autorización', 'número de pedido', 'pedido', 'factura', 'número de factura',
  'número de cliente', 'número de seguimiento', 'referencia', 'código postal', 'teléfono', 'CIF', 'NIF',
  // Portuguese
  'cupom', 'cupão', 'código de desconto', 'desconto', 'código de autorização', 'número do pedido', 'nota fiscal', 'CEP', 'telefone', 'rastreamento',
  'código de rastreio', 'CNPJ', 'CPF',
  // Italian
  'codice sconto', 'codice promozionale', 'sconto', 'codice di autorizzazione', "numero d'ordine", 'ordine', 'fattura', 'CAP', 'telefono', 'prenotazione',
  'partita iva', 'P.IVA',
  // Dutch
  '*kortingscode', '*actiecode', 'kortingsbon', 'korting', '*bestelnummer', 'bestelling', '*factuurnummer', '*klantnummer', 'telefoon', 'KvK', 'BTW',
  // Polish
  'kod rabatowy', 'kod promocyjny', 'kupon', 'rabat', 'zniżka', 'numer zamówienia', 'zamówienie', 'faktura', 'kod pocztowy', 'NIP', 'REGON',
  // Russian
  'промокод', 'купон', 'скидка', 'скидку', 'скидки', 'номер заказа', 'заказ', 'заказа', 'счёт', 'счет', 'индекс', 'телефон', 'ИНН', 'код авторизации',
  // Japanese
  'クーポン', '割引', 'プロモーション', '注文番号', 'ご注文', '請求書', '郵便番号', '〒', '電話', '会員番号', 'お問い合わせ番号', '予約番号', '承認番号', '加盟店',
  // Chinese
  '优惠码', '优惠券', '優惠碼', '折扣', '促销', '订单号', '訂單編號', '订单', '发票', '邮编', '电话', '電話', '会员号', '授权码', '商户号', '终端号',
  // Korean
  '할인', '쿠폰', '프로모션', '주문번호', '주문 번호', '송장', '우편번호', '전화', '승인번호', '가맹점',
];

const STRONG = [
  // English
  'verification code', 'verify code', 'security code', 'login code', 'log-in code', 'sign-in code', 'signin code', 'one-time code', 'one-time passcode',
  'one-time password', 'one-time pin', 'OTP', '2FA', '2FA code', 'two-factor code', 'two-factor authentication code', 'authentication code',
  'single-use code', 'temporary code', 'steam guard code', 'device code', 'verification pin', 'enter this code', 'enter the code', 'enter the following code',
  'use this code', 'use the following code', 'use the code', 'your code is', 'code below', 'code is below', 'sms code', 'code sms', 'sms-code',
  'kod sms', 'código sms', 'codice sms', 'sms-код', 'код из смс',
  // German
  '*bestätigungscode', '*verifizierungscode', '*verifikationscode', '*sicherheitscode', '*einmalcode', 'einmalpasswort', 'einmal-passwort', '*anmeldecode',
  'login-code', '*authentifizierungscode', 'TAN', 'mTAN', 'smsTAN', 'ihr code lautet', 'dein code lautet', 'code lautet',
  // French
  'code de vérification', 'code de sécurité', 'code à usage unique', 'code de connexion', "code d'authentification", 'mot de passe à usage unique',
  'code temporaire', 'votre code est',
  // Spanish
  'código de verificación', 'código de seguridad', 'código de un solo uso', 'código de inicio de sesión', 'código de autenticación',
  'clave de un solo uso', 'código temporal', 'tu código es', 'su código es',
  // Portuguese
  'código de verificação', 'código de segurança', 'código de autenticação', 'código de login', 'senha de uso único', 'código temporário', 'seu código é',
  // Italian
  'codice di verifica', 'codice di sicurezza', 'codice OTP', 'codice monouso', 'codice di autenticazione', 'codice temporaneo', 'il tuo codice è',
  // Dutch
  '*verificatiecode', '*beveiligingscode', '*inlogcode', 'eenmalige code', '*authenticatiecode', 'je code is', 'uw code is',
  // Polish
  'kod weryfikacyjny', 'kod bezpieczeństwa', 'kod jednorazowy', 'kod logowania', 'kod uwierzytelniający', 'twój kod to', 'kod weryfikacji',
  // Russian
  'код подтверждения', 'код проверки', 'проверочный код', 'одноразовый код', 'код для входа', 'код безопасности', 'код верификации', 'одноразовый пароль',
  'ваш код',
  // Japanese
  '認証コード', '確認コード', '検証コード', '認証番号', 'ワンタイムパスワード', 'ワンタイムコード', 'セキュリティコード', 'ログインコード',
  // Chinese
  '验证码', '驗證碼', '校验码', '校驗碼', '动态码', '動態碼', '确认码', '確認碼', '安全码', '一次性密码', '登录码', '登入碼',
  // Korean
  '인증번호', '인증 번호', '인증코드', '인증 코드', '확인 코드', '확인코드', '보안 코드', '보안코드', '일회용 비밀번호', '로그인 코드',
];

const MEETING = ['passcode', 'pin', 'pin code', 'access code', 'zugangscode', 'kenncode', "code d'accès", 'código de acceso', 'código de acesso', 'codice di accesso', '*toegangscode', 'kod dostępu', 'код доступа', 'パスコード', '密码'];

const BOOKING = ['confirmation code', 'confirmation number', 'code de confirmation', 'código de confirmación', 'código de confirmação', 'codice di conferma', '*bevestigingscode', 'kod potwierdzający', 'kod potwierdzenia', 'код подтверждения заказа', '確認番号'];

const WEAK = ['code', 'codes', 'código', 'codigo', 'codice', 'kod', 'код', 'コード', '코드', '码', '碼', 'your code', 'the code'];

/** Letters of scripts that space their words: a phrase of these is bounded by them. */
const SPACED = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;

/** A phrase as a pattern, without its boundaries: spaces and dashes match any run of either. */
function phraseBody(phrase: string): string {
  return phrase
    .replace(/^\*/, '')
    .split(/[ -]/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "['’]"))
    .join('[\\s-]*');
}

const byLength = (a: string, b: string) => b.replace('*', '').length - a.replace('*', '').length;

/**
 * One pattern for every cue, in three alternations that share their
 * boundaries (a boundary per phrase made the pattern slow to compile and to
 * run): compounds ("…code" ending a longer word), whole words, and phrases of
 * unspaced scripts. Longest first in each, so "promo code" wins over "code".
 */
function compile(phrases: string[]): RegExp {
  const compounds = phrases.filter((p) => p.startsWith('*')).sort(byLength).map(phraseBody);
  const words = phrases.filter((p) => !p.startsWith('*') && SPACED.test(p[0]!)).sort(byLength).map(phraseBody);
  const unspaced = phrases.filter((p) => !p.startsWith('*') && !SPACED.test(p[0]!)).sort(byLength).map(phraseBody);
  const parts = [
    compounds.length ? `(?<!\\p{N})\\p{L}*(?:${compounds.join('|')})(?![\\p{L}\\p{N}])` : '',
    words.length ? `(?<![\\p{L}\\p{N}])(?:${words.join('|')})(?![\\p{L}\\p{N}])` : '',
    unspaced.length ? `(?:${unspaced.join('|')})` : '',
  ].filter(Boolean);
  return new RegExp(parts.join('|'), 'giu');
}

const KINDS: [CueKind, string[]][] = [['decoy', DECOY], ['strong', STRONG], ['meeting', MEETING], ['booking', BOOKING], ['weak', WEAK]];

export const CUE = compile(KINDS.flatMap(([, phrases]) => phrases));

/** Which list a matched phrase came from: one small anchored test per kind (a group per phrase made every match cost hundreds). */
const KIND_OF: [CueKind, RegExp][] = KINDS.map(([kind, phrases]) => [kind, new RegExp(`^(?:${phrases.map((p) => (p.startsWith('*') ? `\\p{L}*${phraseBody(p)}` : phraseBody(p))).join('|')})$`, 'iu')]);

export interface Cue {
  kind: CueKind;
  start: number;
  end: number;
  text: string;
}

/** Every cue in `text`, left to right, none overlapping. */
export function cuesIn(text: string): Cue[] {
  const found: Cue[] = [];
  for (const match of text.matchAll(CUE)) {
    const kind = KIND_OF.find(([, test]) => test.test(match[0]))?.[0] ?? 'weak';
    found.push({ kind, start: match.index, end: match.index + match[0].length, text: match[0] });
  }
  return found;
}

/** Emails about signing in: their subject says so. */
export const AUTH_SUBJECT =
  /autori[sz]|authori[sz]|autoryz|авториз|verif|confirm|\bcode\b|log[\s-]?in|sign[\s-]?in|sign[\s-]?up|password|passcode|\botp\b|2fa|two[\s-]factor|security|one[\s-]time|authenticat|\baccess\b|activat|\bdevice\b|bestätig|\bcode\b|anmeld|passwort|sicherheit|\btan\b|vérif|connexion|mot de passe|código|codigo|contraseña|acceso|sesión|senha|acesso|codice|accesso|verifica|inlog|wachtwoord|bevestig|\bkod\b|weryfik|hasło|logowan|код|подтвержд|вход|пароль|認証|確認|コード|ログイン|パスワード|验证|驗證|登录|登入|密码|密碼|인증|로그인|비밀번호|확인/iu;

/** Emails about buying, shipping or marketing: their subject says so. */
export const COMMERCE_SUBJECT =
  /%|receipt|soldes|rebajas|saldi|uitverkoop|wyprzeda|распродаж|セール|促|세일|\border\b|invoice|\bsale\b|% off|\bdeal|promo|coupon|discount|shipped|delivery|newsletter|rechnung|bestellung|angebot|rabatt|commande|facture|réduction|pedido|factura|oferta|descuento|encomenda|desconto|ordine|fattura|sconto|bestelling|factuur|korting|zamówien|faktura|rabat|заказ|скидк|注文|領収|割引|订单|發票|发票|优惠|주문|영수증|할인/iu;

/** Emails that are a meeting's invitation: their passcode is the meeting's. */
export const MEETING_MAIL = /\bmeet\b|google meet|join by phone|^invitation:|\bmeeting\b|\bzoom\b|webinar|\bdial\b|conference|microsoft teams|join (the )?(call|meeting)|besprechung|réunion|reunión|riunione|vergadering|spotkanie|встреч|会議|会议|회의/iu;

/** Emails that are a booking's: their confirmation code is the booking's. */
export const BOOKING_MAIL = /\bflight\b|\bbooking\b|reservation|itinerary|\bhotel\b|check-in|boarding|\bflug\b|buchung|réservation|\bvol\b|vuelo|reserva|\bvoo\b|\bvolo\b|prenotazione|vlucht|boeking|rezerwacj|рейс|бронир|予約|航空|预订|航班|예약|항공/iu;
