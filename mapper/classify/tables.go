package classify

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/frontlatch/frontlatch/shared"
)

// This file is the one place the classifier's word lists live: one table
// per semantic type and one per form purpose, each pattern tagged with its
// language. Patterns are Go regular expressions matched against lower-case
// text with whitespace collapsed; names and ids are first split into words
// ("yourEmail", "your-email", "input[email]" → "your email"). Use \b only
// next to ASCII letters (RE2's \b is ASCII-only).
//
// In the spirit of Chromium's autofill heuristics: per-type positive
// patterns in many languages, negative patterns that veto a match, and an
// order of evaluation that lets the more specific type win ("email address"
// is email before it is an address; "first name" is given-name before it is
// a name).

// pat is one pattern with its language (ISO 639-1, "*" for any).
type pat struct {
	lang string
	re   string
}

// fieldRule: the text patterns of one semantic type. controls limits the
// rule to some kinds of control (see kind*); zero means text-like controls.
type fieldRule struct {
	semantic shared.SemanticType
	controls controlKind
	pos      []pat
	neg      []pat
	// strength scales the source weight: 1 for the type's defining words,
	// lower for words that only suggest it.
	strength float64
}

type controlKind uint8

const (
	kindText     controlKind = 1 << iota // input text-like, textarea
	kindSelect                           // select, radio group
	kindCheckbox                         // single checkbox or checkbox group
	kindAny      = kindText | kindSelect | kindCheckbox
)

// notOurs: text that names a field none of our semantic types describe
// (credentials, search boxes, captchas, coupons, quantities, payment
// cards…). Checked before the semantic rules so "user name" is not a
// person's name and "search" is not a message.
var notOurs = []fieldRule{
	{semantic: shared.SemanticUnknown, controls: kindAny, strength: 0.9, pos: []pat{
		{"en", `\buser[ -]?(name|id)\b|\blog[ -]?in\b|\bsign[ -]?in\b|\bnick[ -]?name|\bscreen[ -]?name|\bhandle\b|\baccount (name|id|number)`},
		{"en", `\bpass[ -]?(word|wd|phrase)|\bpwd\b|\bpin\b|\bpasscode`},
		{"en", `\bsearch|\bkeywords?\b|\bquery\b|\bfind\b|^q$|^s$|\blook[ -]?up\b`},
		{"en", `captcha|\bsecurity (code|question|answer)|\bverification code|\banti[ -]?spam|\bhuman\b|\bwhat is \d+|\b\d{1,2} ?[+x*×] ?\d{1,2}\b`},
		{"en", `\b(coupon|promo|voucher|discount|gift[ -]?card|invitation|referral)[ -]?code|\bquantity\b|\bqty\b`},
		{"en", `\b(card|cc)[ -]?(number|num|no)\b|\bcvv|\bcvc|\bccv\b|\bexpir|\bcard[ -]?type|\biban\b|\bbic\b|\bswift\b`},
		{"en", `\bremember me|\bkeep me (logged|signed)|\bstay (logged|signed)`},
		{"en", `\b(sort|order)[ -]?by\b|\bsorting\b|\bper[ -]?page\b|\bcurrency\b|\blanguage\b|\btime[ -]?zone|\bgender\b|\bsex\b|\bsalutation|\bfax\b|\bmiddle[ -]?name|\bage\b|\bjob[ -]?title|\b(display|screen)[ -]?name`},
		{"de", `benutzer(name)?|anmelde(name)?|passwort|kennwort|suche|suchbegriff|sicherheitscode|gutschein|menge|anzahl artikel|geschlecht|anrede|sortieren`},
		{"es", `usuario|contraseña|clave|buscar|búsqueda|cupón|cantidad|género|sexo|ordenar`},
		{"fr", `identifiant|utilisateur|mot de passe|rechercher?|recherche|code promo|quantité|civilité|trier`},
		{"it", `utente|password|cerca|ricerca|quantità|sesso|ordina`},
		{"pt", `usuário|utilizador|senha|pesquisa|pesquisar|quantidade|sexo`},
		{"nl", `gebruikersnaam|wachtwoord|zoeken|zoekterm|aantal|geslacht|aanhef`},
		{"ru", `логин|пользовател|пароль|поиск|найти|капча|количество|пол($|[^\p{L}])|(контрольн|секретн)\p{L}* вопрос`},
		{"pl", `użytkownik|login|hasło|szukaj|wyszukaj|ilość|płeć`},
		{"tr", `kullanıcı|şifre|parola|arama|ara\b|miktar|cinsiyet`},
		{"ja", `ユーザー名|ユーザid|パスワード|検索|キーワード|数量|性別`},
		{"zh", `用户名|帐号|账号|密码|搜索|查找|关键字|关键词|数量|性别|验证码`},
		{"ko", `아이디|사용자|비밀번호|검색|수량|성별`},
		{"sv", `säkerhetsfråga|användarnamn|användar-?id|lösenord|logga in|inloggning|sök\b|sökord|säkerhetskod|rabattkod|^antal$|kön$`},
		{"da", `sikkerhedsspørgsmål|brugernavn|adgangskode|kodeord|log ind|søg\b|søgeord|rabatkode|^antal$|køn$`},
		{"no", `sikkerhetsspørsmål|brukernavn|passord|logg inn|søk\b|søkeord|rabattkode|^antall$|kjønn`},
		{"fi", `turvakysymys|käyttäjätunnus|käyttäjänimi|salasana|kirjaudu|hae\b|haku\b|hakusana|etsi\b|turvakoodi|alennuskoodi|^määrä$|sukupuoli`},
		{"cs", `(bezpečnostní|kontrolní) otázka|uživatel|heslo|přihlášení|přihlásit|hledat|vyhledat|hledání|vyhledávání|opište|slevový kód|množství|pohlaví|oslovení`},
		{"hu", `(biztonsági|emlékeztető) kérdés|felhasználó|jelszó|bejelentkez|keresés|kereső|keress\b|biztonsági kód|kuponkód|mennyiség|^nem$|neme\b|megszólítás`},
		{"ro", `[îi]ntrebare(a)? de securitate|utilizator|parol[aă]|autentificare|căutare|caut[ăa]|cautare|cod de securitate|cod promo[tț]ional|cantitate`},
		{"el", `[όο]νομα χρ[ήη]στη|κωδικ[όο][σς] πρ[όο]σβασης|συνθηματικ|αναζ[ήη]τηση|ποσ[όο]τητα|φ[ύυ]λο$`},
		{"ar", `سؤال الأمان|المنطقة الزمنية|اسم المستخدم|كلمة المرور|كلمة السر|بحث|ابحث|رمز التحقق|الكمية|الجنس`},
		{"fa", `سوال (امنیتی|تصادفی)|منطقه زمانی|نام کاربری|رمز عبور|کلمه عبور|جستجو|جست\x{200c}وجو|کد امنیتی|^تعداد$|جنسیت`},
		{"he", `שם משתמש|סיסמה|סיסמא|חיפוש|חפש|קוד אימות|כמות|^מין$`},
		{"vi", `tên đăng nhập|tên tài khoản|mật khẩu|tìm kiếm|mã xác nhận|mã bảo mật|mã giảm giá|số lượng|giới tính`},
		{"id", `nama pengguna|kata sandi|cari\b|pencarian|kode keamanan|kode verifikasi|kode (kupon|promo|voucher)|^jumlah$|jenis kelamin`},
		{"lt", `vartotoj|prisijungim|slapta[žz]od|paie[šs]k|ie[šs]koti`},
		{"lv", `lietot[āa]j|parole|meklēt|mekl[ēe][šs]ana`},
		{"et", `kasutaja|parool|salas[õo]na|otsi\b|otsing`},
		{"sk", `pou[žz][íi]vate[ľl]|heslo|h[ľl]ada[ťt]|vyh[ľl]ad[áa]v`},
		{"sl", `uporabni[šs]k|geslo|iskanje|i[šs][čc]i\b`},
		{"hr", `korisni[čc]k|lozink|pretra[žz]|tra[žz]i\b`},
		{"bg", `потребител|парола|търсене|търси`},
		{"uk", `користувач|логін|пароль|пошук|знайти`},
	}, neg: []pat{
		{"en", `e-?mail`}, // "login e-mail" is an email
		// a postcode or address look-up asks for the postcode
		{"en", `(post ?code|postal code|zip( code)?|address) ?(search|look ?up|finder)`},
	}},
}

// checkboxRules: meaning of a checkbox from its label. Marketing first:
// "I agree to receive offers" is an opt-in, not a consent to terms.
var checkboxRules = []fieldRule{
	{semantic: shared.SemanticMarketingOptIn, controls: kindCheckbox, strength: 1, pos: []pat{
		{"en", `newsletter|\bsubscribe|mailing[ -]?list|\bmarketing|special offers|\boffers\b|promotion|\bupdates\b|\bnews\b|receive (e-?mails?|emails?|news|information|info|offers|messages|communications)|keep me (informed|updated|posted)|sign me up|e-?mail me|send me|\bopt[ -]?in|hear about|contact me (about|with)|notify me (of|about|when)`},
		{"de", `newsletter|abonnier|angebote|werbung|informiert|zusenden|infos? per e-?mail`},
		{"es", `suscrib|boletín|ofertas|promociones|novedades|recibir (información|correos|noticias)`},
		{"fr", `abonner|inscrire à la|lettre d'information|offres|promotions|actualités|recevoir`},
		{"it", `iscriviti|iscrizione alla|offerte|promozioni|novità|ricevere`},
		{"pt", `inscrever|assinar|ofertas|promoções|novidades|receber`},
		{"nl", `nieuwsbrief|aanbiedingen|acties|op de hoogte|ontvangen`},
		{"ru", `рассылк|подпис|новост|акци|получать`},
		{"pl", `newsletter|subskryb|oferty|promocj|otrzymywa`},
		{"tr", `bülten|abone|kampanya|fırsat`},
		{"ja", `メルマガ|メールマガジン|ニュースレター|お知らせ`},
		{"zh", `订阅|新闻|优惠|推广`},
		{"ko", `뉴스레터|구독|광고|마케팅`},
		{"sv", `nyhetsbrev|prenumerera|erbjudanden|kampanjer|utskick|marknadsföring|ta emot (nyheter|information|erbjudanden|e-?post)`},
		{"da", `nyhedsbrev|tilmeld|abonn|tilbud|markedsføring|modtage (nyheder|information|tilbud|e-?mails?)`},
		{"no", `nyhetsbrev|abonn|tilbud|markedsføring|motta (nyheter|informasjon|tilbud|e-?post)`},
		{"fi", `uutiskirje|uutisia|tiedote|tiedotte|tilaa|tilaan|tarjouk|markkinoin|vastaanottaa (uutisia|tietoa|tarjouksia)|haluan (vastaanottaa|saada)`},
		{"cs", `newsletter|odebír|odběr|novink|nabídk|obchodních sdělení|obchodní sdělení|zasílání`},
		{"hu", `hírlev|feliratkoz|ajánlat|akció|marketing|reklám|értesüljön|értesítést kér`},
		{"ro", `newsletter|abona|abonez|oferte|promo[țţt]ii|nout[ăa][țţt]i|marketing|comunic[ăa]ri comerciale|primi (oferte|nout|informa|e-?mail)`},
		{"el", `ενημερωτικ|newsletter|προσφορ|ενημερ[ώω]σεις|διαφημιστικ|προωθητικ`},
		{"ar", `النشرة|نشرة|اشترك|الاشتراك|العروض|عروض|التسويق|تسويق`},
		{"fa", `خبرنامه|تخفیف|پیشنهادهای ویژه|تبلیغات|دریافت (ایمیل|پست الکترونیک|خبر|اخبار|اطلاعیه|پیامک)`},
		{"he", `ניוזלטר|דיוור|עדכונים|מבצעים|פרסומ|הטבות|שיווקי`},
		{"vi", `bản tin|nhận tin|đăng ký nhận|khuyến mãi|khuyến mại|ưu đãi|tiếp thị`},
		{"id", `berlangganan|buletin|promo|penawaran|pemasaran|info terbaru`},
		// checkboxes only: Lithuanian, Latvian, Estonian, Slovak, Slovenian,
		// Croatian/Serbian, Bulgarian, Ukrainian
		{"lt", `naujien|prenumer|pasiūlym|akcij|reklamin`},
		{"lv", `jaunum|abonē|piedāvājum|akcij|reklām`},
		{"et", `uudiskiri|uudiskirja|uudised|pakkumis|kampaania|turundus`},
		{"sk", `novink|odber|newsletter|ponuk|obchodných oznámení|marketing`},
		{"sl", `novic|e-novic|naroč|ponudb|akcij|trženj|oglaš`},
		{"hr", `novost|pretplat|bilten|ponud|akcij|marketinšk|newsletter`},
		{"bg", `бюлетин|новини|абонира|оферти|промоции|маркетинг`},
		{"uk", `розсилк|новин|підпис|акці|пропозиці|маркетинг`},
	}, neg: []pat{{"en", `unsubscribe`}}},
	{semantic: shared.SemanticConsent, controls: kindCheckbox, strength: 1, pos: []pat{
		{"en", `\bagree|\baccept|\bconsent|\bterms|\bconditions|privacy|\bgdpr\b|data protection|i have read|\bi confirm|\bpolicy\b|\bdisclaimer|\bauthori[sz]e|\backnowledge`},
		{"de", `einverstanden|zustimm|akzeptier|datenschutz|agb|bedingungen|einwillig|willige|gelesen`},
		{"es", `acepto|aceptar|de acuerdo|privacidad|términos|condiciones|consiento|protección de datos|he leído`},
		{"fr", `j'accepte|accepte|accord|confidentialité|conditions|rgpd|consens|j'ai lu|données personnelles`},
		{"it", `accetto|acconsento|consenso|privacy|termini|condizioni|trattamento dei dati|ho letto`},
		{"pt", `aceito|concordo|consinto|privacidade|termos|condições|li e`},
		{"nl", `akkoord|ga akkoord|accepteer|voorwaarden|privacy|toestemming|gelezen`},
		{"ru", `согла|принимаю|услови|конфиденциальн|персональных данных`},
		{"pl", `zgod|akceptuj|regulamin|prywatności|przetwarzanie danych`},
		{"tr", `kabul|onay|koşul|gizlilik|kvkk`},
		{"ja", `同意|利用規約|個人情報|プライバシー`},
		{"zh", `同意|条款|隐私|协议`},
		{"ko", `동의|약관|개인정보`},
		{"sv", `godkänn|accepter|samtyck|villkor|integritet|personuppgift|dataskydd|jag har läst|jag intygar|jag bekräftar`},
		{"da", `accepter|godkend|samtyk|betingelser|vilkår|privatliv|persondata|databeskyttelse|jeg har læst|jeg bekræfter`},
		{"no", `godta|aksepter|samtyk|vilkår|betingelser|personvern|jeg har lest|jeg bekrefter`},
		{"fi", `hyväksy|suostu|ehdot\b|ehtoihin|ehtoja\b|ehdoista|käyttöehto|toimitusehto|tietosuoj|henkilötie|olen lukenut|vahvistan`},
		{"cs", `souhlas|přijímám|akceptuj|podmínk|osobních údajů|osobní údaje|četl|seznámil|prohlašuji`},
		{"hu", `elfogad|hozzájárul|egyetért|feltétel|adatvédelm|adatkezel|elolvastam|megismertem|ászf|aszf\b`},
		{"ro", `accept|sunt de acord|de acord|termeni|condi[țţt]ii|confiden[țţt]ialitate|prelucrarea datelor|caracter personal|am citit|consim[țţt]`},
		{"el", `συμφων|αποδ[έε]χομαι|[όο]ρου[σς]|[όο]ροι|απορρ[ήη]του|προσωπικ[ώωάα]ν? δεδομ[έε]ν|συγκατ[άα]θεση|δι[άα]βασα`},
		{"ar", `أوافق|اوافق|موافق|أقبل|اقبل|الشروط|شروط|الأحكام|الخصوصية|البيانات الشخصية|قرأت`},
		{"fa", `موافقم|موافق|می\x{200c}پذیرم|میپذیرم|قوانین|شرایط|حریم خصوصی|مطالعه کرده`},
		{"he", `מסכים|מסכימה|מאשר|מאשרת|תנאי|תקנון|פרטיות|הסכמה|קראתי`},
		{"vi", `đồng ý|chấp nhận|điều khoản|chính sách|quyền riêng tư|dữ liệu cá nhân|tôi đã đọc`},
		{"id", `setuju|menyetujui|syarat|ketentuan|privasi|data pribadi|saya (telah|sudah) membaca`},
		{"lt", `sutinku|sutikim|susipažinau|taisykl|sąlyg|privatum|asmens duomen`},
		{"lv", `piekrītu|piekrist|piekrišan|noteikum|privātum|personas dati|esmu iepazin`},
		{"et", `nõustun|nõusolek|olen nõus|tingimus|privaatsus|isikuandme|olen tutvunud`},
		{"sk", `súhlasím|súhlas|podmienk|osobných údajov|ochran[aeuy] osobných|oboznámil|prečítal`},
		{"sl", `strinjam|soglaš|soglasje|pogoj|zasebnost|osebnih podatkov|prebral`},
		{"hr", `slažem se|prihvaćam|prihvatam|suglasan|saglasan|suglasnost|uvjet|uslov|privatnost|osobnih podataka|pročitao`},
		{"bg", `съгласен|съгласна|съгласие|приемам|условия|поверителност|лични данни|запознат`},
		{"uk", `згоден|згодна|згоду|погоджуюсь|погоджуюся|приймаю|умов|конфіденційн|персональних даних|ознайомлен`},
	}},
}

// fieldRules: text-like and choice controls, most specific first.
var fieldRules = []fieldRule{
	{semantic: shared.SemanticEmail, controls: kindText, strength: 1, pos: []pat{
		{"en", `e-?[ -]?mail|\bmail[ -]?address|^mail$|\bmail\b`},
		{"de", `e-?mail-?adresse|\bmail\b`},
		{"es", `correo|e-?mail`},
		{"fr", `courriel|adresse (é|e)lectronique|mél\b`},
		{"it", `posta elettronica|indirizzo e-?mail`},
		{"pt", `correio eletr|correio electr|correio-e|endereço de e-?mail`},
		{"ru", `электронн|почта|эл\.?[ -]?почт|e-?mail|емейл|имейл`},
		{"pl", `e-?mail|adres mailowy|poczta`},
		{"tr", `e-?posta`},
		{"ja", `メール|ｅメール|e-?mail`},
		{"zh", `邮箱|电子邮件|邮件|信箱|電子郵件`},
		{"ko", `이메일|메일|전자우편`},
		{"sv", `e-?[ -]?post|mejl`},
		{"da", `mailadresse`},
		{"no", `e-?[ -]?post|mailadresse`},
		{"fi", `sähköposti|s-posti`},
		{"cs", `e-?mailov|elektronick[áé] po[šs]t`},
		{"hu", `e-?mail ?-?cím|villámposta`},
		{"ro", `po[șşs]t[ăa] electronic|adres[ăa] de e-?mail`},
		{"el", `ηλεκτρονικ[όοήη]ύ? (ταχυδρομ|διε[ύυ]θυνση)`},
		{"ar", `بريد ال?[إا]لكتروني|البريد ال?[إا]لكتروني|[إا]يميل`},
		{"fa", `ایمیل|پست الکترونیک|رایانامه`},
		{"he", `דוא[\"״'׳]?ל|דואר אלקטרוני|אימייל|מייל`},
		{"vi", `thư điện tử`},
		{"id", `surel\b|surat elektronik`},
		{"lt", `el\.? ?pa[šs]t|elektroninis pa[šs]tas`},
		{"lv", `e-?pasts|e-?pasta adrese|elektroniskais pasts`},
		{"sl", `e-?po[šs]t|elektronska po[šs]ta`},
		{"hr", `e-?po[šs]t|elektroni[čc]k[aeo] po[šs]t`},
		{"bg", `имейл|е-поща|електронна поща|ел\.? поща`},
		{"uk", `електронн[аоі]|ел\.? пошт|е-пошт|імейл`},
	}, neg: []pat{{"en", `\bconfirm(ation)? (by|via)|newsletter`}}},
	{semantic: shared.SemanticWebsiteURL, controls: kindText, strength: 1, pos: []pat{
		{"en", `web[ -]?site|web[ -]?page|home[ -]?page|\burl\b|web address|\bsite\b|\blink\b|\bblog\b|^web$|\bweb\b|youtube|vimeo|dailymotion|video (url|link)`},
		{"de", `webseite|internetseite|homepage|internetadresse`},
		{"es", `sitio web|página web`},
		{"fr", `site (web|internet)`},
		{"it", `sito|indirizzo del sito`},
		{"pt", `site|página`},
		{"ru", `сайт|веб`},
		{"pl", `strona (www|internetowa)`},
		{"tr", `web sitesi`},
		{"ja", `ウェブサイト|ホームページ|url`},
		{"zh", `网站|网址|主页`},
		{"ko", `웹사이트|홈페이지`},
		{"sv", `webbplats|hemsida|webbsida|webbadress`},
		{"da", `hjemmeside|webside|websted|webadresse`},
		{"no", `nettside|hjemmeside|nettsted|nettadresse`},
		{"fi", `verkkosivu|kotisivu|nettisivu|web-?sivu|www[ -]?osoite`},
		{"cs", `webov[áé] str|internetov[áé] str|www str`},
		{"hu", `weboldal|honlap|weblap|webcím`},
		{"ro", `site web|pagin[aă] web`},
		{"el", `ιστοσελ[ίι]δα|ιστ[όο]τοπο`},
		{"ar", `الموقع ال?[إا]لكتروني|موقع الويب|موقع [إا]لكتروني|رابط الموقع`},
		{"fa", `وب ?سایت|وب\x{200c}سایت|سایت`},
		{"he", `אתר אינטרנט|אתר האינטרנט|כתובת אתר|כתובת האתר|^אתר$`},
		{"vi", `trang web`},
		{"id", `situs|laman web|alamat web`},
	}},
	{semantic: shared.SemanticPhone, controls: kindText, strength: 1, pos: []pat{
		{"en", `phone|\btel\b|\btel\.|telephone|mobile|\bcell\b|cellphone|\bgsm\b|contact number|phone number|\bph($|[^\p{L}])|\bmob\b|\bwhats[ -]?app|\bsms\b`},
		{"de", `telefon|handy|\bmobil(\b|telefon|nummer|funk|nr)|rufnummer|tel\.?-?nr`},
		{"es", `teléfono|telefono|móvil|movil|celular`},
		{"fr", `téléphone|telephone|portable|mobile|tél\b|tel\b`},
		{"it", `telefono|cellulare|recapito telefonico`},
		{"pt", `telefone|telemóvel|celular|contacto telef`},
		{"nl", `telefoon|mobiel|telefoonnummer`},
		{"ru", `телефон|моб|тел($|[^\p{L}])`},
		{"pl", `telefon|komórk`},
		{"tr", `telefon|cep ?(tel|no\b|numara)`},
		{"ja", `電話|携帯|\btel(no|num|nr)?\b`},
		{"zh", `电话|手机|電話|手機`},
		{"ko", `전화|휴대폰|연락처`},
		{"sv", `telefon|mobil(nummer|telefon|nr)?\b|tfn\b`},
		{"da", `telefon|mobil(nummer|telefon|nr)?\b|tlf\b`},
		{"no", `telefon|mobil(nummer|telefon|nr)?\b|tlf\b`},
		{"fi", `puhelin|puh\b|matkapuhelin|kännykkä`},
		{"cs", `telefon|mobil\b`},
		{"hu", `telefon|mobil(szám|telefon)?\b|mobilszám`},
		{"ro", `telefon|mobil\b`},
		{"el", `τηλ[έε]φων|τηλ\.|κινητ[όο]`},
		{"ar", `هاتف|جوال|موبايل|تلفون|رقم (التواصل|الاتصال)|واتس ?اب`},
		{"fa", `تلفن|موبایل|شماره تماس|شماره همراه`},
		{"he", `טלפון|נייד|פלאפון|סלולרי`},
		{"vi", `điện thoại|sđt|số đt|di động`},
		{"id", `telepon|telpon|telp\b|ponsel|handphone|no\.? ?hp\b|^hp$|nomor (hp|wa|whatsapp)`},
		{"lt", `telefon|mobil(us|aus|iojo)`},
		{"lv", `t[āa]lru[nņ]|telefon|mob[iī]l(ais|ā|ais tālrunis)`},
		{"et", `telefon|mobiil`},
		{"sk", `telef[óo]n|mobil\b|mobiln`},
		{"sl", `telefon|mobil\b|mobilni|gsm`},
		{"hr", `telefon|mobitel|mobilni`},
		{"bg", `телефон|мобилен|gsm`},
		{"uk", `телефон|мобільн`},
	}, neg: []pat{{"en", `\bfax\b|telefax|phone type|extension|\bext\b`}}},
	{semantic: shared.SemanticPreferredTimeWindow, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `best time|preferred time|convenient time|time to (call|contact|reach)|when (should|can|may) we (call|contact|reach)|availability|(time|arrival|delivery|visit|appointment|service|call-?back|call) window|time slot|morning or afternoon`},
		{"de", `erreichbarkeit|erreichbar|beste zeit|bevorzugte zeit|rückrufzeit`},
		{"es", `horario (preferido|de contacto)|mejor hora|franja horaria|disponibilidad`},
		{"fr", `créneau|meilleur moment|horaire (préféré|de rappel)|disponibilité`},
		{"it", `fascia oraria|orario preferito|disponibilità`},
		{"pt", `melhor horário|horário preferido|disponibilidade`},
		{"nl", `beste tijd|voorkeurstijd|bereikbaar`},
	}},
	{semantic: shared.SemanticGivenName, controls: kindText, strength: 1, pos: []pat{
		{"en", `first[ -]?name|given[ -]?name|fore[ -]?name|\bfname\b|\bfirst\b|christian name|^fn$`},
		{"de", `vorname`},
		{"es", `nombre de pila|primer nombre`},
		{"fr", `prénom|prenom`},
		{"it", `nome di battesimo`},
		{"pt", `primeiro nome|nome próprio`},
		{"nl", `voornaam`},
		{"tr", `adınız$`},
		{"ja", `^名$|^名\s*[（(]|ファーストネーム|下の名前|^めい$`},
		{"zh", `^名$|名字`},
		{"sv", `förnamn|tilltalsnamn`},
		{"da", `fornavn`},
		{"no", `fornavn`},
		{"fi", `etunimi|etunimesi`},
		{"cs", `křestní|krestni`},
		{"hu", `keresztn[ée]v|utón[ée]v`},
		{"ro", `prenume`},
		{"el", `μικρ[όο] [όο]νομα`},
		{"ar", `الاسم ال[أا]ول|اسمك ال[أا]ول`},
		{"fa", `نام کوچک`},
		{"he", `שם פרטי`},
		{"id", `nama depan|nama pertama`},
		{"et", `eesnimi`},
		{"sk", `krstn[ée] meno`},
		{"bg", `собствено име`},
	}, neg: []pat{{"en", `\b(last|sur|family|full|company|user|nick)`}, {"de", `nachname|\bname,? vorname|vor- und`}, {"fr", `(^|[^\p{L}])nom\b`}, {"pl", `nazwisk`}, {"tr", `soyad`}, {"ru", `фамил|отчеств`},
		{"hu", `vezeték`}, {"ro", `nume (și|şi|si) prenume`}, {"he", `משפחה`}}},
	{semantic: shared.SemanticFamilyName, controls: kindText, strength: 1, pos: []pat{
		{"en", `last[ -]?name|sur[ -]?name|family[ -]?name|\blname\b|\blast\b|^ln$`},
		{"de", `nachname|familienname|zuname`},
		{"es", `apellido`},
		{"fr", `nom de famille`},
		{"it", `cognome`},
		{"pt", `sobrenome|apelido|último nome`},
		{"nl", `achternaam`},
		{"ru", `фамилия`},
		{"pl", `nazwisko`},
		{"tr", `soyad`},
		{"ja", `^姓$|姓（|名字|ラストネーム`},
		{"zh", `^姓$|姓氏`},
		{"ko", `^성$|성씨`},
		{"sv", `efternamn`},
		{"da", `efternavn`},
		{"no", `etternavn`},
		{"fi", `sukunimi`},
		{"cs", `příjmení|prijmeni`},
		{"hu", `vezetékn[ée]v|családn[ée]v`},
		{"ro", `nume(le)? de familie`},
		{"el", `επ[ώω]νυμο`},
		{"ar", `اسم العائلة|الاسم ال[أا]خير|اللقب`},
		{"fa", `نام[ \x{200c}]?خانوادگی|فامیلی`},
		{"he", `שם משפחה`},
		{"vi", `^họ$`},
		{"id", `nama belakang|nama keluarga`},
		{"lt", `pavard`},
		{"lv", `uzv[āa]rd`},
		{"et", `perekonnanimi|perenimi`},
		{"sk", `priezvisk`},
		{"sl", `priimek`},
		{"hr", `prezime`},
		{"bg", `фамилия|фамилно име`},
		{"uk", `прізвищ`},
	}, neg: []pat{{"lt", `vardas`}, {"lv", `v[āa]rds,? (un )?uzv`}, {"et", `ees- ja|eesnimi`}, {"sk", `meno a`}, {"sl", `ime in`}, {"hr", `ime i`}, {"bg", `име и`}, {"uk", `ім['’ʼ]?я (та|і|й)`}, {"en", `first|full|given`}, {"de", `vorname|vor- und|vor und`}, {"es", `nombre`}, {"fr", `prénom`}, {"it", `nome`}, {"pt", `nome`}, {"nl", `voornaam`}, {"ru", `имя`}, {"pl", `imię|imie`}, {"tr", `ad soyad|ad ve soyad|adı soyadı|adınız soyadınız|ad-soyad|ad/soyad`},
		{"sv", `för- och|för och efter`}, {"da", `for- og|for og efter`}, {"no", `for- og|for og etter`}, {"fi", `etu-? ja`}, {"cs", `jméno a|jmeno a`},
		{"hu", `kereszt`}, {"ro", `prenume`}, {"fa", `نام و نام`}, {"he", `שם ושם|שם פרטי`}, {"id", `nama depan`}}},
	{semantic: shared.SemanticCompany, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `company|organi[sz]ation|business name|\bbusiness\b|\bfirm\b|employer|institution|\borg\b|agency|practice name|department`},
		{"de", `firma|unternehmen|firmenname|betrieb`},
		{"es", `empresa|compañía|organización|razón social`},
		{"fr", `entreprise|société|organisme|raison sociale`},
		{"it", `azienda|società|ragione sociale|ditta\b|ente\b`},
		{"pt", `empresa|companhia|organização`},
		{"nl", `bedrijf|organisatie|bedrijfsnaam`},
		{"ru", `компани|организац|фирм`},
		{"pl", `firma|nazwa firmy|organizacj`},
		{"tr", `şirket|firma|kurum`},
		{"ja", `会社|企業|法人|団体|組織|御社|貴社`},
		{"zh", `公司|单位|企业|機構`},
		{"ko", `회사|기업|단체`},
		{"sv", `företag|organisation|firma|bolag|arbetsgivare`},
		{"da", `virksomhed|firma|organisation|arbejdsgiver|selskab`},
		{"no", `bedrift|firma|organisasjon|selskap|arbeidsgiver|virksomhet`},
		{"fi", `yrity|organisaatio|työnantaja|yhtiö|firma`},
		{"cs", `firm[ay]|společnost|organizac|zaměstnavatel`},
		{"hu", `cég|vállalat|vállalkozás|szervezet|munkáltató`},
		{"ro", `companie|compania|firm[aă]|societate|organiza[țţt]i|angajator`},
		{"el", `εταιρ|επιχε[ίι]ρησ|οργανισμ|επωνυμ[ίι]α`},
		{"ar", `الشركة|شركة|المؤسسة|مؤسسة|جهة العمل`},
		{"fa", `شرکت|سازمان`},
		{"he", `חברה|ארגון|שם העסק`},
		{"vi", `công ty|doanh nghiệp|tổ chức`},
		{"id", `perusahaan|instansi|organisasi|nama usaha|nama bisnis`},
		{"lt", `[įi]mon[ėe]|organizacij`},
		{"lv", `uz[ņn][ēe]mum|organiz[āa]cij`},
		{"et", `ettev[õo]te|firma|organisatsioon`},
		{"sk", `spolo[čc]nos[ťt]|firma|organiz[áa]ci`},
		{"sl", `podjetje|organizacij`},
		{"hr", `tvrtk|poduze[ćc]|organizacij`},
		{"bg", `фирма|компания|организация`},
		{"uk", `компані|організаці|підприємств`},
	}, neg: []pat{{"en", `company size|number of employees|\bsize\b|type of business|industry|confirm`}}}, // German "firma" is in "confirmation", "confirmar"
	// "name" is also the tail of many attribute names (comp_name,
	// user_name): a little weaker than the specific types.
	{semantic: shared.SemanticPersonName, controls: kindText, strength: 0.9, pos: []pat{
		{"en", `\bname\b|full[ -]?name|your[ -]?name|contact[ -]?name|contact person|\bnames?\b|^nm$|\bwho\b`},
		{"de", `\bname\b|ihr name|vor- und nachname|vollständiger name`},
		{"es", `nombre|nombre completo|nombre y apellidos?`},
		{"fr", `\bnom\b|nom complet|nom et prénom|votre nom`},
		{"it", `\bnome\b|nome e cognome|nominativo`},
		{"pt", `\bnome\b|nome completo`},
		{"nl", `\bnaam\b|volledige naam|uw naam`},
		{"ru", `имя|фио|ваше имя|фамилия,? имя`},
		{"pl", `imię i nazwisko|imie i nazwisko|imię|nazwa`},
		{"tr", `ad soyad|adı soyadı|isim|adınız|ad ve soyad|\bad\b`},
		{"ja", `氏名|お名前|名前|おなまえ|ご担当者`},
		{"zh", `姓名|名字|称呼|联系人`},
		{"ko", `이름|성명|성함`},
		{"sv", `namn|för- och efternamn|kontaktperson`},
		{"da", `navn|for- og efternavn|kontaktperson`},
		{"no", `navn|for- og etternavn|kontaktperson`},
		{"fi", `nimi\b|nimesi|etu-? ja sukunimi|yhteyshenkilö`},
		{"cs", `jméno|jmeno\b|kontaktní osoba`},
		{"hu", `név|neve\b|nevét|vezeték- és keresztnév|kapcsolattartó`},
		{"ro", `nume\b|numele\b|persoan[ăa] de contact`},
		{"el", `[όο]νομα|ονοματεπ[ώω]νυμο`},
		{"ar", `الاسم|اسمك|اسم`},
		{"fa", `^نام$|نام و نام|نام کامل|نام شما`},
		{"he", `שם מלא|^שם$|^השם$|שמך|שם ושם משפחה|שם פרטי ושם משפחה`},
		{"vi", `họ (và )?tên|tên`},
		{"id", `nama\b`},
		{"lt", `vardas`},
		{"lv", `v[āa]rds\b`},
		{"et", `nimi\b|ees- ja perekonnanimi`},
		{"sk", `meno a priezvisko|meno\b`},
		{"sl", `ime in priimek|ime\b`},
		{"hr", `ime i prezime|ime\b`},
		{"bg", `име и фамилия|име($|[^\p{L}])`},
		{"uk", `ім['’ʼ]?я та прізвище|ім['’ʼ]?я($|[^\p{L}])|п\.?і\.?б`},
	}, neg: []pat{{"en", `\b(company|business|user|nick|file|screen|domain|account|product|event|pet|list|street|city|town|web|site|page|host|server|shop|store|brand|job|hotel|restaurant|venue|school|organi[sz]ation|club|team|property|building)`}, {"pl", `nazwa (firmy|użytkownika)`},
		{"sv", `butik|produkt|domän|fil(namn)?\b`}, {"da", `butik|produkt|domæne|fil(navn)?\b`}, {"no", `butikk|produkt|domene|fil(navn)?\b`}, {"fi", `tuote|kauppa|kaupan|verkkotunnu|tiedosto`},
		{"cs", `produkt|obchod|doméno|soubor`}, {"hu", `termék|bolt|üzlet|fájl`}, {"ro", `produs|magazin|fi[șş]ier`},
		{"el", `προ[ϊι][όο]ν|καταστ[ήη]ματ`}, {"ar", `المنتج|المتجر`}, {"fa", `محصول|فروشگاه`}, {"he", `מוצר|חנות`}, {"vi", `sản phẩm|cửa hàng|tên miền`}, {"id", `produk|toko|domain`}}},
	{semantic: shared.SemanticPostcode, controls: kindText, strength: 1, pos: []pat{
		{"en", `\bzip|postal code|post[ -]?code|postcode|\bpin[ -]?code\b|\bpostal\b|\bpc\b`},
		{"de", `\bplz\b|postleitzahl`},
		{"es", `código postal|codigo postal|\bc\.?p\.?$`},
		{"fr", `code postal|\bcp\b`},
		{"it", `\bcap\b|c\.a\.p|codice postale|codice di avviamento postale`},
		{"pt", `\bcep\b|código postal`},
		{"nl", `postcode`},
		{"ru", `индекс|почтовый код`},
		{"pl", `kod pocztowy|kod$`},
		{"tr", `posta kodu`},
		{"ja", `郵便番号|〒`},
		{"zh", `邮编|邮政编码|郵遞區號`},
		{"ko", `우편번호`},
		{"sv", `postnummer|postnr`},
		{"da", `postnummer|postnr`},
		{"no", `postnummer|postnr`},
		{"fi", `postinumero|postinro`},
		{"cs", `psč|poštovní směrovací`},
		{"hu", `irányítószám|irsz\b`},
		{"ro", `cod(ul)? po[șşs]tal`},
		{"el", `ταχυδρομικ[όο][σς] κ[ώω]δικ|^τ\.? ?κ\.?$`},
		{"ar", `الرمز البريدي|رمز بريدي|الرقم البريدي`},
		{"fa", `کد پستی`},
		{"he", `מיקוד`},
		{"vi", `mã bưu (điện|chính)`},
		{"id", `kode pos`},
		{"lt", `pa[šs]to kod`},
		{"lv", `pasta inde[kx]s`},
		{"et", `postiindeks|sihtnumber`},
		{"sk", `ps[čc]($|[^\p{L}])|po[šs]tov[ée] smerovacie`},
		{"sl", `po[šs]tna [šs]tevilka`},
		{"hr", `po[šs]tanski broj`},
		{"bg", `пощенски код`},
		{"uk", `поштовий індекс|^індекс$`},
	}, neg: []pat{{"en", `postal address`}}},
	{semantic: shared.SemanticLocality, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `\bcity\b|\btown\b|suburb|locality|\bvillage\b|address level[ -]?2|\bcity/`},
		{"de", `\bstadt\b|\bort\b|wohnort|ortschaft|gemeinde`},
		{"es", `ciudad|localidad|población|municipio`},
		{"fr", `\bville\b|localité|commune`},
		{"it", `città|citta|comune|località`},
		{"pt", `cidade|localidade|município`},
		{"nl", `\bplaats\b|woonplaats|stad\b|gemeente`},
		{"ru", `город|населенный пункт`},
		{"pl", `miasto|miejscowość|gmina`},
		{"tr", `şehir|ilçe|^il$|^il ?/`},
		{"ja", `市区町村|市町村|都市`},
		{"zh", `城市|市`},
		{"ko", `도시|시/군`},
		{"sv", `postort|ort\b|stad\b|kommun\b`},
		{"da", `^by$|bynavn|postdistrikt|kommune\b`},
		{"no", `^by$|poststed|^sted$|kommune\b`},
		{"fi", `kaupunki|paikkakunta|postitoimipaikka|kotikunta|kunta\b`},
		{"cs", `město|mesto\b|obec\b`},
		{"hu", `település|város|helység`},
		{"ro", `ora[șş]|oras\b|localitat`},
		{"el", `π[όο]λη|δ[ήη]μος`},
		{"ar", `المدينة|مدينة`},
		{"fa", `شهر`},
		{"he", `עיר|יישוב|ישוב`},
		{"vi", `thành phố|quận|huyện`},
		{"id", `kota\b|kabupaten|kecamatan`},
		{"lt", `miestas|gyvenviet`},
		{"lv", `pils[ēe]ta`},
		{"et", `linn\b|asula`},
		{"sk", `mesto|obec\b`},
		{"sl", `mesto`},
		{"hr", `grad\b|mjesto`},
		{"bg", `град($|[^\p{L}])|населено място`},
		{"uk", `місто|населений пункт`},
	}, neg: []pat{{"en", `capacity|ethnicity|electricity|publicity`}}},
	{semantic: shared.SemanticRegion, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `\bstate\b|province|\bregion\b|\bcounty\b|territory|prefecture|address level[ -]?1|\bstate/`},
		{"de", `bundesland|kanton|region|provinz`},
		{"es", `provincia|estado|región|comunidad autónoma`},
		{"fr", `région|département|province|état`},
		{"it", `provincia|regione`},
		{"pt", `estado|província|distrito|região`},
		{"nl", `provincie|regio`},
		{"ru", `область|регион|край`},
		{"pl", `województwo|wojewodztwo`},
		{"tr", `bölge|eyalet`},
		{"ja", `都道府県`},
		{"zh", `省|州|地区`},
		{"ko", `시/도|도/시`},
		{"sv", `län\b|landskap`},
		{"no", `fylke`},
		{"fi", `maakunta|lääni`},
		{"hu", `megye|régió`},
		{"ro", `jude[țţt]|regiun`},
		{"el", `νομ[όο][σς]($|[^\p{L}])|περιφ[έε]ρεια`},
		{"ar", `المحافظة|محافظة|المنطقة|الولاية`},
		{"fa", `استان`},
		{"he", `מחוז`},
		{"vi", `tỉnh`},
		{"id", `provinsi|propinsi`},
	}, neg: []pat{{"en", `statement|united states|\bstate your|countr(y|ies) ?(/|or|and|&) ?region`}, {"es", `estado civil`}}},
	{semantic: shared.SemanticCountry, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `country|nation\b|nationality`},
		{"de", `\bland\b|staat`},
		{"es", `\bpaís|\bpais\b`},
		{"fr", `\bpays\b`},
		{"it", `paese|nazione|stato`},
		{"pt", `\bpaís|\bpais\b`},
		{"nl", `\bland\b`},
		{"ru", `страна`},
		{"pl", `kraj|państwo`},
		{"tr", `ülke`},
		{"ja", `国|国名`},
		{"zh", `国家|国籍`},
		{"ko", `국가|나라`},
		{"fi", `maa\b|valtio|kotimaa|asuinmaa`},
		{"cs", `země|zeme\b|stát`},
		{"hu", `ország`},
		{"ro", `[țţ]ar[ăa]|tara\b`},
		{"el", `χ[ώω]ρα`},
		{"ar", `الدولة|البلد|دولة`},
		{"fa", `کشور`},
		{"he", `מדינה|ארץ`},
		{"vi", `quốc gia`},
		{"id", `negara`},
	}, neg: []pat{{"en", `county|country code|phone|dial`}}},
	{semantic: shared.SemanticStreetAddress, controls: kindText, strength: 1, pos: []pat{
		{"en", `address|street|\baddr\b|\bline[ -]?[12]\b|house[ -]?(number|no)|apartment|\bapt\b|\bsuite\b|\bunit\b|p\.?o\.? box|\bflat\b|building`},
		{"de", `adresse|anschrift|straße|strasse|str\.|hausnummer|hausnr`},
		{"es", `dirección|direccion|domicilio|\bcalle\b|número exterior`},
		{"fr", `adresse|\brue\b|voie|numéro de rue`},
		{"it", `indirizzo|\bvia\b|civico|domicilio`},
		{"pt", `endereço|endereco|morada|\brua\b|logradouro`},
		{"nl", `\badres\b|straat|huisnummer`},
		{"ru", `адрес|улица|дом($|[^\p{L}])`},
		{"pl", `adres|ulica|numer domu`},
		{"tr", `adres|sokak|cadde|mahalle`},
		{"ja", `住所|番地|丁目`},
		{"zh", `地址|住址|街道`},
		{"ko", `주소|도로명`},
		{"sv", `adress|gatu|gata\b`},
		{"da", `adresse|vejnavn|gade\b|husnummer`},
		{"no", `adresse|gateadresse|gatenavn`},
		{"fi", `osoite|katuosoite|lähiosoite|postiosoite`},
		{"cs", `adres|ulice|číslo popisné`},
		{"hu", `cím$|cím |lakcím|utca|házszám|közterület`},
		{"ro", `adres|strad[aă]`},
		{"el", `διε[ύυ]θυνση|^οδ[όο][σς]$`},
		{"ar", `العنوان|عنوانك|عنوان السكن|عنوان المنزل|الشارع|شارع`},
		{"fa", `آدرس|نشانی|خیابان`},
		{"he", `כתובת|רחוב`},
		{"vi", `địa chỉ|số nhà|đường\b|đường phố`},
		{"id", `alamat|jalan\b`},
		{"lt", `adresas|gatv`},
		{"lv", `adrese|iela`},
		{"et", `aadress|t[äa]nav`},
		{"sk", `adresa|ulica`},
		{"sl", `ulica`},
		{"hr", `adresa|ulica`},
		{"bg", `адрес|улица`},
		{"uk", `адреса|вулиц`},
	}, neg: []pat{{"en", `e-?mail|\bip\b|web[ -]?address|mac address`}, {"ar", `عنوان الرسالة|البريد`}}},
	{semantic: shared.SemanticSubject, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `subject|\btopic\b|\bre:|\btitle\b|\bheadline|\bheading\b|regarding|reason for (contact|enquiry|inquiry)`},
		{"de", `betreff|thema|titel|anliegen`},
		{"es", `asunto|tema|título|motivo`},
		{"fr", `\bobjet\b|\bsujet\b|titre|motif`},
		{"it", `oggetto|argomento|titolo|motivo`},
		{"pt", `assunto|tema|título|motivo`},
		{"nl", `onderwerp|titel`},
		{"ru", `тема|заголовок`},
		{"pl", `temat|tytuł`},
		{"tr", `konu|başlık`},
		{"ja", `件名|題名|タイトル|用件`},
		{"zh", `主题|标题|主旨`},
		{"ko", `제목|주제`},
		{"sv", `ämne|rubrik|ärende|gäller`},
		{"da", `emne|overskrift|vedrørende`},
		{"no", `emne|tittel|overskrift|gjelder|vedrørende`},
		{"fi", `aihe|otsikko`},
		{"cs", `předmět|predmet\b|téma`},
		{"hu", `tárgy|téma`},
		{"ro", `subiect|titlu`},
		{"el", `θ[έε]μα|τ[ίι]τλο`},
		{"ar", `الموضوع|موضوع|عنوان الرسالة`},
		{"fa", `موضوع|عنوان`},
		{"he", `נושא|כותרת`},
		{"vi", `tiêu đề|chủ đề`},
		{"id", `subjek|perihal|judul|topik`},
		{"lt", `tema\b`},
		{"lv", `temats|t[ēe]ma\b`},
		{"et", `teema`},
		{"sk", `predmet`},
		{"sl", `zadeva`},
		{"hr", `predmet|naslov poruke`},
		{"bg", `тема($|[^\p{L}])`},
		{"uk", `тема($|[^\p{L}])`},
	}, neg: []pat{{"en", `job[ -]?title|\bmr\b|salutation`}}},
	{semantic: shared.SemanticPartySize, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `party size|number of (people|guests|persons|adults|diners|attendees|participants|seats|covers|pax)|\bguests\b|\bpeople\b|\bpax\b|\bcovers\b|\bpersons\b|\battendees|\badults\b|how many (people|guests)`},
		{"de", `personenzahl|anzahl (der )?(personen|gäste|teilnehmer)|\bpersonen\b|\bgäste\b`},
		{"es", `número de (personas|comensales|invitados)|personas|comensales`},
		{"fr", `nombre de (personnes|couverts|convives|participants)|personnes|couverts`},
		{"it", `numero di (persone|ospiti|coperti)|persone|coperti`},
		{"pt", `número de (pessoas|convidados)|pessoas`},
		{"nl", `aantal (personen|gasten)|personen`},
		{"ru", `количество (гостей|человек|персон)|гостей`},
		{"pl", `liczba (osób|gości)`},
		{"tr", `kişi sayısı`},
		{"ja", `人数|名様`},
		{"zh", `人数|用餐人数`},
		{"ko", `인원`},
		{"sv", `antal (personer|gäster)`},
		{"da", `antal (personer|gæster)`},
		{"no", `antall (personer|gjester)`},
		{"fi", `henkilömäärä|henkilöiden määrä`},
		{"cs", `počet (osob|hostů)`},
		{"hu", `létszám|személyek száma`},
		{"ro", `num[ăa]r(ul)? de (persoane|invita)`},
		{"el", `αριθμ[όο][σς] (ατ[όο]μων|προσ[ώω]πων)`},
		{"ar", `عدد (ال[أا]شخاص|الضيوف|ال[أا]فراد)`},
		{"fa", `تعداد (نفرات|افراد|مهمان)`},
		{"he", `מספר (סועדים|אורחים|אנשים)`},
		{"vi", `số (người|khách)`},
		{"id", `jumlah (orang|tamu|peserta)`},
	}},
	{semantic: shared.SemanticBudget, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `budget|price range|how much.*(spend|budget)|spend`},
		{"de", `budget|preisvorstellung|preisrahmen`},
		{"es", `presupuesto`},
		{"fr", `budget`},
		{"it", `budget|preventivo di spesa`},
		{"pt", `orçamento`},
		{"nl", `budget`},
		{"ru", `бюджет`},
		{"pl", `budżet`},
		{"tr", `bütçe`},
		{"ja", `予算`},
		{"zh", `预算`},
		{"ko", `예산`},
		{"no", `budsjett`},
		{"fi", `budjetti`},
		{"cs", `rozpočet`},
		{"hu", `költségkeret`},
		{"ro", `buget`},
		{"el", `προ[ϋυ]πολογισμ`},
		{"ar", `الميزانية|ميزانية`},
		{"fa", `بودجه`},
		{"he", `תקציב`},
		{"vi", `ngân sách`},
		{"id", `anggaran`},
	}},
	{semantic: shared.SemanticReferralSource, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `how did you (hear|find|learn)|where did you (hear|find)|\breferr(al|ed)|\bsource\b|heard about us|found us`},
		{"de", `wie haben sie (uns|von uns)|aufmerksam geworden|wie sind sie auf`},
		{"es", `cómo (nos )?(conoció|conociste|encontró)|como nos conoció`},
		{"fr", `comment avez-vous (connu|entendu)|comment nous avez-vous`},
		{"it", `come ci hai (conosciuto|trovato)|come ci ha conosciuto`},
		{"pt", `como (nos )?conheceu|como soube`},
		{"nl", `hoe (heeft u|heb je) ons gevonden|hoe kent u ons`},
		{"ru", `как вы (узнали|нашли)|откуда вы узнали`},
	}},
	{semantic: shared.SemanticContactPreference, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `preferred (contact|method|way|means)|contact (preference|method|me by|by)|how (should|would you like|can|may) we (contact|reach|respond)|reply (by|via)|respond (by|via)`},
		{"de", `bevorzugte kontakt|kontaktweg|kontaktart|antwort per|kontakt per`},
		{"es", `(método|medio|forma) de contacto|prefiere que (le|lo) contactemos`},
		{"fr", `(moyen|mode|préférence) de contact|être contacté par`},
		{"it", `(metodo|modalità|mezzo) di contatto|preferisci essere contattato`},
		{"pt", `(forma|meio|preferência) de contato|(forma|meio) de contacto`},
		{"nl", `voorkeur voor contact|contactvoorkeur`},
	}},
	{semantic: shared.SemanticExistingCustomer, controls: kindAny, strength: 1, pos: []pat{
		{"en", `existing (customer|client|patient)|(new|returning|current) (customer|client|patient)|are you a (new|current|returning|existing)|have you (visited|been|used) (us|our)|(been|visited) (here|us) before`},
		{"de", `bestandskunde|neukunde|bereits kunde|schon kunde|neuer patient`},
		{"es", `cliente (existente|nuevo|actual)|ya es cliente|paciente nuevo`},
		{"fr", `déjà client|nouveau (client|patient)|client existant`},
		{"it", `già cliente|nuovo (cliente|paziente)`},
		{"pt", `já é cliente|novo (cliente|paciente)`},
		{"nl", `bestaande klant|nieuwe (klant|patiënt)`},
	}},
	{semantic: shared.SemanticDate, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `\bdate\b|\bday\b|birth[ -]?day|date of birth|\bdob\b|\bwhen\b|arrival|check[ -]?-?in|check[ -]?-?out|departure|\bdd[ -]?/[ -]?mm|\bmm[ -]?/[ -]?dd|appointment`},
		{"de", `datum|geburtsdatum|geburtstag|anreise|abreise|termin|wunschtermin`},
		{"es", `fecha|fecha de nacimiento|llegada|salida|cita`},
		{"fr", `\bdate\b|date de naissance|arrivée|départ|jour|rendez-vous`},
		{"it", `\bdata\b|data di nascita|arrivo|partenza|giorno|appuntamento`},
		{"pt", `\bdata\b|data de nascimento|chegada|partida|dia`},
		{"nl", `datum|geboortedatum|aankomst|vertrek`},
		{"ru", `дата|день рождения|число`},
		{"pl", `data|data urodzenia|przyjazd|wyjazd`},
		{"tr", `tarih|doğum tarihi|giriş|çıkış`},
		{"ja", `日付|日にち|生年月日|予約日|希望日|到着日`},
		{"zh", `日期|出生日期|生日|到达|入住`},
		{"ko", `날짜|생년월일|일자`},
		{"sv", `ankomst(dag)?$|avresa$|avresedag|födelsedag`},
		{"da", `^dato$|(fødsels|ankomst|afrejse|leverings|booking|start|slut|ønsket )dato|ankomst(dag)?$|afrejse(dag)?$`},
		{"no", `^dato$|(fødsels|ankomst|avreise|leverings|bestillings|start|slutt|ønsket )dato|ankomst(dag)?$|avreise(dag)?$`},
		{"fi", `\p{L}*päivä|syntymäaika|pvm\b`},
		{"cs", `příjezd|odjezd|termín`},
		{"hu", `dátum|időpont|érkezés|távozás`},
		{"ro", `dată|sosir|plecar`},
		{"el", `ημερομην[ίι]α|άφιξη|αναχ[ώω]ρηση`},
		{"ar", `التاريخ|تاريخ`},
		{"fa", `تاریخ|تاريخ`},
		{"he", `תאריך`},
		{"vi", `ngày`},
		{"id", `tanggal|tgl\b`},
	}, neg: []pat{{"en", `update|candidate|validate|\btime[ -]?zone|(personal|your|my|customer|user|account) data|\bdata (protection|privacy|processing|policy|usage|sharing|consent)`}}},
	{semantic: shared.SemanticTime, controls: kindText | kindSelect, strength: 1, pos: []pat{
		{"en", `\btime\b|\bhour\b|o'clock|\bhh[ -]?:[ -]?mm`},
		{"de", `uhrzeit|\bzeit\b|uhr\b`},
		{"es", `\bhora\b|horario`},
		{"fr", `\bheure\b|horaire`},
		{"it", `\bora\b|orario`},
		{"pt", `\bhora\b|horário`},
		{"nl", `\btijd\b|tijdstip`},
		{"ru", `время`},
		{"pl", `godzina`},
		{"tr", `\bsaat\b`},
		{"ja", `時間|時刻`},
		{"zh", `时间|時間`},
		{"ko", `시간`},
		{"sv", `tidpunkt|klockslag|önskad tid|tid\b`},
		{"da", `tidspunkt|klokkeslæt|ønsket tid`},
		{"no", `tidspunkt|klokkeslett|ønsket tid`},
		{"fi", `kellonaika|aika\b`},
		{"cs", `čas\b|hodina`},
		{"el", `^[ώω]ρα$|[ώω]ρα (άφιξης|ραντεβού)`},
		{"ar", `الوقت|الساعة`},
		{"fa", `ساعت|زمان`},
		{"he", `שעה`},
		{"vi", `giờ|thời gian`},
		{"id", `waktu|^jam$`},
	}, neg: []pat{{"en", `time[ -]?zone|full[ -]?time|part[ -]?time|first time|\btimes\b|timestamp|time frame`}}},
	{semantic: shared.SemanticServiceRequested, controls: kindText | kindSelect, strength: 0.9, pos: []pat{
		{"en", `\bservices?\b|treatment|\bproduct\b|interested in|type of (work|job|service|project|enquiry|inquiry|request)|\bjob type|what do you need|project type|practice area|area of (law|practice|interest|expertise)|legal (matter|issue)|matter type`},
		{"de", `leistung|dienstleistung|behandlung|interesse an|art der anfrage`},
		{"es", `servicio|tratamiento|interesado en|tipo de (servicio|consulta|trabajo)`},
		{"fr", `prestation|\bservice\b|soin|intéressé par|type de (demande|projet)`},
		{"it", `servizio|trattamento|interessato a|tipo di (richiesta|servizio)`},
		{"pt", `serviço|tratamento|interessado em|tipo de (serviço|pedido)`},
		{"nl", `dienst|behandeling|interesse in|soort (aanvraag|dienst)`},
		{"ru", `услуг|процедур`},
		{"pl", `usług|zabieg`},
		{"tr", `hizmet|tedavi`},
		{"ja", `サービス|ご希望のメニュー|施術|コース`},
		{"zh", `服务|项目`},
		{"ko", `서비스|시술`},
		{"sv", `tjänst|behandling`},
		{"da", `ydelse|tjeneste|behandling`},
		{"no", `tjeneste|behandling`},
		{"fi", `palvelu|hoito`},
		{"cs", `služb|ošetření`},
		{"hu", `szolgáltatás|kezelés`},
		{"ro", `servici|tratament`},
		{"el", `υπηρεσ|θεραπε`},
		{"ar", `الخدمة|الخدمات`},
		{"fa", `خدمات|نوع خدمت`},
		{"he", `שירות`},
		{"vi", `dịch vụ`},
		{"id", `layanan`},
	}, neg: []pat{{"en", `terms of service|customer service`}}},
	{semantic: shared.SemanticFileAttachment, controls: kindText, strength: 1, pos: []pat{
		{"en", `attach|upload|\bfile\b|\bcv\b|resume|résumé|photo|picture|image|document`},
		{"de", `anhang|datei|hochladen|lebenslauf`},
		{"es", `adjunt|archivo|subir`},
		{"fr", `pièce jointe|fichier|joindre|télécharger`},
		{"it", `allegato|allega|file|carica`},
		{"pt", `anexo|arquivo|ficheiro|carregar`},
		{"nl", `bijlage|bestand|uploaden`},
		{"ru", `вложени|файл|прикрепить`},
		{"pl", `załącznik|plik`},
		{"tr", `dosya`},
		{"ja", `添付|ファイル`},
		{"zh", `附件|上传|文件`},
		{"ko", `첨부|파일`},
		{"sv", `bifoga|bilaga|ladda upp`},
		{"da", `vedhæft|upload`},
		{"no", `vedlegg|last opp`},
		{"fi", `liite|liitä|tiedosto`},
		{"cs", `příloh|soubor|nahrát`},
		{"hu", `csatol|fájl|feltölt`},
		{"ro", `ata[șş]|fi[șş]ier|[îi]ncarc[ăa]|[îi]nc[ăa]rcare`},
		{"el", `συνημμ[έε]ν|αρχε[ίι]ο|επισ[ύυ]ναψ`},
		{"ar", `مرفق|إرفاق|ارفاق`},
		{"fa", `فایل|پیوست`},
		{"he", `קובץ|צרף|צירוף`},
		{"vi", `tệp|đính kèm|tải lên`},
		{"id", `lampiran|unggah|berkas`},
	}},
	{semantic: shared.SemanticMessage, controls: kindText, strength: 1, pos: []pat{
		{"en", `message|comment|enquiry|inquiry|question|\bdetails\b|description|\bnotes?\b|\bbody\b|\btext\b|\bmsg\b|how can we help|tell us|your (request|query|needs)|\bfeedback|\bremarks?\b|\bcontent\b|\breview\b|\bwrite\b|additional (information|info|details|comments)|\bdescribe\b|special requests?|help (you )?with`},
		{"de", `nachricht|mitteilung|kommentar|anfrage|anliegen|bemerkung|beschreibung|ihre frage|text`},
		{"es", `mensaje|comentario|consulta|pregunta|descripción|observaciones|texto`},
		{"fr", `message|commentaire|demande|question|description|remarque|texte|votre avis|précisions`},
		{"it", `messaggio|commento|richiesta|domanda|descrizione|note|testo`},
		{"pt", `mensagem|comentário|pedido|pergunta|descrição|observações|texto|dúvida`},
		{"nl", `bericht|opmerking|vraag|omschrijving|toelichting|tekst`},
		{"ru", `сообщени|комментари|вопрос|текст|описание|отзыв|примечани`},
		{"pl", `wiadomość|wiadomosc|komentarz|pytanie|treść|opis|uwagi`},
		{"tr", `mesaj|yorum|soru|açıklama`},
		{"ja", `メッセージ|お問い合わせ内容|問い合わせ|コメント|本文|内容|ご質問|ご意見|備考|要望`},
		{"zh", `留言|评论|消息|内容|內容|问题|描述|备注|備註`},
		{"ko", `메시지|내용|문의|댓글|질문`},
		{"sv", `meddelande|kommentar|fråga|frågor|beskrivning|övrig|önskemål`},
		{"da", `besked|meddelelse|kommentar|spørgsmål|beskrivelse|bemærkning|henvendelse`},
		{"no", `melding|beskjed|kommentar|spørsmål|beskrivelse|merknad|henvendelse`},
		{"fi", `viesti|kommentti|kysymys|kuvaus|lisätie|palaute`},
		{"cs", `zpráv|vzkaz|komentář|dotaz|poznámk|popis`},
		{"hu", `üzenet|megjegyzés|kérdés|leírás|észrevétel`},
		{"ro", `mesaj|comentari|[îi]ntrebar|descriere|observa[țţt]ii|detalii`},
		{"el", `μ[ήη]νυμα|σχ[όο]λι|ερ[ώω]τηση|περιγραφ[ήη]|παρατηρ[ήη]σεις`},
		{"ar", `الرسالة|رسالة|رسالتك|تعليق|ملاحظات|استفسار|سؤال|التفاصيل`},
		{"fa", `پیام|توضیحات|متن|سوال|سؤال|پرسش`},
		{"he", `הודעה|תוכן|הערות|הערה|שאלה|תיאור`},
		{"vi", `nội dung|tin nhắn|lời nhắn|ghi chú|câu hỏi|mô tả`},
		{"id", `pesan\b|komentar|pertanyaan|keterangan|deskripsi|catatan`},
		{"lt", `[žz]inut|prane[šs]im|komentar|klausim`},
		{"lv", `zi[ņn]a|zi[ņn]ojum|koment[āa]r|jaut[āa]jum`},
		{"et", `s[õo]num|kommentaar|k[üu]simus`},
		{"sk", `spr[áa]v|koment[áa]r|ot[áa]zk`},
		{"sl", `sporo[čc]il|komentar|vpra[šs]anj`},
		{"hr", `poruk|komentar|pitanj`},
		{"bg", `съобщение|коментар|въпрос`},
		{"uk", `повідомлен|коментар|питанн|запитанн`},
	}},
	// A choice list asking which kind of thing ("Type of bike", "Kind of
	// vehicle") is, in a customer's form, what they ask the business to
	// work on. Weaker than the defining words above, and only for choices:
	// as free text the same words ask for a description.
	// Not "category": in a contact form a category list is the subject.
	{semantic: shared.SemanticServiceRequested, controls: kindSelect, strength: 0.7, pos: []pat{
		{"en", `\b(type|kind|sort) of\b`},
		{"de", `\bart (des|der)\b`},
		{"es", `\btipo de\b`},
		{"fr", `\btype de\b`},
		{"it", `\btipo di\b`},
		{"pt", `\btipo de\b`},
		{"nl", `\bsoort\b`},
	}},
}

// choiceSubject: words that make a choice list (a select, a radio group)
// the subject of a message — "Category", "Topic of your question", "How
// can we help?" — when the form also has a message box (choiceSubject in
// field.go). Without one the same list is a filter ("Category" beside a
// search box), which no type of ours describes.
var choiceSubject = []fieldRule{
	{semantic: shared.SemanticSubject, controls: kindSelect, strength: 1, pos: []pat{
		{"en", `categor|\btopics?\b|how (can|may) we help|what can we help|help you with|what (is|'s) (your|this) (enquiry|inquiry|question|message|request) (about|regarding)|nature of (your )?(enquiry|inquiry|request|question)|(enquiry|inquiry|request|question) type|type of (enquiry|inquiry|request|question)`},
		{"de", `kategorie|rubrik|themenbereich|wie können wir (ihnen |dir )?helfen|worum geht es|art (ihrer|der) (anfrage|frage|nachricht)`},
		{"es", `categor[íi]a|c[óo]mo (te |le |les )?podemos ayudar|en qu[ée] (te |le )?podemos ayudar|tipo de (consulta|pregunta|mensaje|solicitud)`},
		{"fr", `cat[ée]gorie|rubrique|comment pouvons-nous (vous )?aider|en quoi pouvons-nous|type de (demande|question|message)|nature de (votre |la )?demande`},
		{"it", `categoria|come possiamo aiutar|tipo di (richiesta|domanda|messaggio)`},
		{"pt", `categoria|como podemos ajudar|em que podemos ajudar|tipo de (pedido|pergunta|mensagem|solicita[çc][ãa]o)`},
		{"nl", `categorie|rubriek|waarmee kunnen we|hoe kunnen we (je|u) helpen|soort (vraag|bericht)`},
		{"ru", `категори|рубрик|чем (мы )?можем (вам )?помочь|тип (вопроса|обращения|сообщения)`},
		{"pl", `kategori|w czym (możemy|mozemy) pomóc|rodzaj (zapytania|pytania|wiadomości)`},
		{"tr", `kategori|nasıl yardımcı olabiliriz|talep türü|mesaj türü`},
		{"ja", `カテゴリ|種別|分類|お問い合わせの種類|お問い合わせ項目`},
		{"zh", `类别|分类|類別|分類|咨询类型|问题类型|留言类型`},
		{"ko", `카테고리|분류|문의 ?유형|문의 ?종류`},
		{"sv", `kategori|hur kan vi hjälpa|typ av (fråga|ärende)`},
		{"da", `kategori|hvordan kan vi hjælpe|type af (henvendelse|spørgsmål)`},
		{"no", `kategori|hvordan kan vi hjelpe|type (henvendelse|spørsmål)`},
		{"fi", `kategoria|luokka|aihealue|miten voimme auttaa|kysymyksen tyyppi`},
		{"cs", `kategori|s čím (vám )?můžeme pomoci|typ (dotazu|zprávy)`},
		{"hu", `kategória|miben segíthetünk|(kérdés|üzenet) típusa`},
		{"ro", `categori|cum (vă|va) putem ajuta|tipul (mesajului|solicit[ăa]rii|[îi]ntreb[ăa]rii)`},
		{"el", `κατηγορ|π[ώω]ς μπορο[ύυ]με να (σας )?βοηθ`},
		{"ar", `الفئة|فئة|التصنيف|تصنيف|نوع (الاستفسار|الرسالة|الطلب)|كيف يمكننا مساعدتك`},
		{"fa", `دسته|دسته\x{200c}بندی|نوع (پیام|درخواست)`},
		{"he", `קטגוריה|סוג (הפנייה|הפניה|הבקשה)|איך נוכל לעזור`},
		{"vi", `danh mục|thể loại|loại (câu hỏi|yêu cầu|liên hệ)`},
		{"id", `kategori|jenis (pertanyaan|pesan|permintaan)|apa yang bisa kami bantu`},
	}},
}

// countryNames: a few countries every country list names, in the 26
// languages and those the checkbox tables add (lower case). A select
// naming two of them is a country list (countriesListed); its size alone
// says nothing — long lists of brands, categories and years are as long.
var countryNames = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range []string{
		// Germany
		"germany|deutschland|allemagne|alemania|germania|alemanha|duitsland|германия|niemcy|almanya|ドイツ|德国|德國|독일|tyskland|saksa|německo|németország|γερμανία|ألمانيا|آلمان|גרמניה|đức|jerman|vokietija|vācija|saksamaa|nemecko|nemčija|njemačka|німеччина",
		// France
		"france|frankreich|francia|frança|frankrijk|франция|francja|fransa|フランス|法国|法國|프랑스|frankrike|frankrig|ranska|francie|franciaország|franța|franţa|γαλλία|فرنسا|فرانسه|צרפת|pháp|prancis|prancūzija|francija|prantsusmaa|francúzsko|francuska|франція",
		// Spain
		"spain|spanien|espagne|españa|spagna|espanha|spanje|испания|hiszpania|ispanya|スペイン|西班牙|스페인|espanja|španělsko|spanyolország|spania|ισπανία|إسبانيا|اسپانیا|ספרד|tây ban nha|spanyol|ispanija|spānija|hispaania|španielsko|španija|španjolska|іспанія",
		// Italy
		"italy|italien|italie|italia|itália|italië|италия|włochy|italya|イタリア|意大利|이탈리아|itálie|olaszország|ιταλία|إيطاليا|ایتالیا|איטליה|ý|italija|itālija|itaalia|taliansko|італія",
		// United States
		"united states|united states of america|usa|u.s.a.|us|vereinigte staaten|états-unis|etats-unis|estados unidos|stati uniti|verenigde staten|сша|соединенные штаты|stany zjednoczone|amerika birleşik devletleri|abd|アメリカ|アメリカ合衆国|美国|美國|미국|förenta staterna|usa|yhdysvallat|spojené státy|egyesült államok|statele unite|ηνωμένες πολιτείες|الولايات المتحدة|ایالات متحده|ארצות הברית|hoa kỳ|amerika serikat|jav|asv|ameerika ühendriigid|сащ|сполучені штати",
		// Japan
		"japan|japon|japón|giappone|japão|япония|japonia|japonya|日本|일본|japani|japonsko|japán|ιαπωνία|اليابان|ژاپن|יפן|nhật bản|jepang|japonija|japāna|jaapan|japonska|японія",
		// United Kingdom
		"united kingdom|uk|great britain|vereinigtes königreich|royaume-uni|reino unido|regno unito|verenigd koninkrijk|великобритания|wielka brytania|birleşik krallık|イギリス|英国|英國|영국|storbritannien|iso-britannia|velká británie|egyesült királyság|regatul unit|ηνωμένο βασίλειο|المملكة المتحدة|بریتانیا|בריטניה|vương quốc anh|inggris|britanija|lielbritānija|suurbritannia|veľká británia|velika britanija|велика британія",
	} {
		for _, n := range strings.Split(list, "|") {
			m[n] = true
		}
	}
	return m
}()

// honeypotText: words beside a control telling people to leave it alone.
var honeypotText = []pat{
	{"en", `leave (this|it)?[ -]?(field )?(blank|empty)|(should|must) be (left )?(blank|empty|unchanged)|do not (fill|change|enter|type)|don't (fill|change|enter|type)|if you are (a )?human|humans? (should|must)|not for humans|for validation purposes|spam[ -]?(trap|protection)|anti-?spam|are you a (bot|robot)`},
	{"de", `(leer|frei) lassen|nicht ausfüllen|bitte leer`},
	{"es", `dejar? (en blanco|vacío)|no (rellenar|completar|llenar)`},
	{"fr", `laisse[rz]? (ce champ )?vide|ne pas (remplir|modifier)|ne rien (écrire|saisir)`},
	{"it", `lascia(re)? (vuoto|in bianco)|non compilare`},
	{"pt", `deixe (em branco|vazio)|não preencha`},
	{"nl", `leeg laten|niet invullen`},
	{"ru", `оставьте (пустым|это поле пустым)|не заполняйте`},
	{"pl", `pozostaw (puste|pole puste)|nie wypełniaj`},
	{"tr", `boş bırak`},
	{"ja", `入力しないで|空欄のまま`},
	{"zh", `请勿填写|留空`},
	{"ko", `비워 두`},
	{"sv", `lämna (detta fält |fältet )?tomt|fyll inte i|ska vara tomt`},
	{"da", `lad (dette felt |feltet )?(være )?tomt|udfyld ikke|skal være tomt`},
	{"no", `la (dette feltet |feltet )?(være )?tomt|ikke fyll ut|skal være tomt`},
	{"fi", `jätä (tämä kenttä |kenttä )?tyhjäksi|älä täytä`},
	{"cs", `(nechte|ponechte) (toto pole )?prázdné|nevyplňujte`},
	{"hu", `hagyj?[ad] üresen|ne töltse ki|ne töltsd ki`},
	{"ro", `l[ăa]sa[țţt]i (acest c[âa]mp )?gol|nu completa[țţt]i`},
	{"el", `αφ[ήη]στε (το |αυτ[όο] το πεδ[ίι]ο )?κεν[όο]|μην συμπληρ[ώω]σετε`},
	{"ar", `اترك.{0,20}فارغ|لا تملأ`},
	{"fa", `خالی بگذارید|پر نکنید`},
	{"he", `השאר ריק|השאירו ריק|אין למלא|לא למלא`},
	{"vi", `(vui lòng|hãy|xin) (để trống|không điền)`},
	{"id", `biarkan kosong|jangan diisi|kosongkan`},
}

// honeypotClass: class tokens that plugins and hand-made forms put on a
// honeypot's wrapper (Gravity Forms gfield--type-honeypot, WPForms
// wpforms-field-hp, Elementor elementor-field-type-honeypot, generic hp /
// honeypot / ohnohoney wrappers). Matched against class tokens, never
// against the field's name.
var honeypotClass = regexp.MustCompile(`(?i)(^|[\s_-])(honeypot|honey|hpot|hp|ohnohoney|gotcha|spam-?trap|bot-?trap|hp-field|field-hp)([\s_-]|$)|gfield--type-honeypot|wpforms-field-hp|elementor-field-type-honeypot|gform_validation_container`)

// hiddenUtilityClass: utility classes that CSS frameworks define as
// display:none or visually hidden. They show a wrapper is hidden even when
// the stylesheet is not loaded (static extraction, saved pages).
var hiddenUtilityClass = regexp.MustCompile(`(?i)(^|\s)(hidden|hide|d-none|is-hidden|u-hidden|visually-hidden|visuallyhidden|sr-only|screen-reader-text|screen-reader-only|invisible|display-none|none|nodisplay|no-display|hidden-field|offscreen|off-screen)(\s|$)`)

// captchaClass: wrappers of captcha widgets; their response fields are the
// widget's bookkeeping (system-token), not honeypots, although they are
// hidden.
var captchaClass = regexp.MustCompile(`(?i)(^|[\s_-])(g-recaptcha|recaptcha|h-captcha|cf-turnstile|frc-captcha|captcha)([\s_-]|$)`)

// purposeRule: words in a form's text (heading, submit labels, visible
// text, action URL, id/class) that point to a purpose.
type purposeRule struct {
	purpose Purpose
	pos     []pat
}

// purposeWords, per purpose. Strong words (in the submit control or the
// heading) weigh more than words in the body text; see form.go.
var purposeWords = []purposeRule{
	{PurposeSearch, []pat{
		{"en", `\bsearch|\bfind\b|\blook[ -]?up\b|\bfilter|\brefine\b`},
		{"de", `suche|suchen|finden|filtern`}, {"es", `buscar|búsqueda|filtrar`}, {"fr", `recherch|chercher|trouver|filtrer`},
		{"it", `cerca|ricerca|filtra`}, {"pt", `pesquis|procurar|buscar|filtrar`}, {"nl", `zoek|filter`}, {"ru", `поиск|найти|искать|фильтр|подобрать`},
		{"pl", `szukaj|wyszukaj`}, {"tr", `\bara\b|arama`}, {"ja", `検索|さがす`}, {"zh", `搜索|查找|搜尋`}, {"ko", `검색`},
		{"sv", `sök\b|sökning`}, {"da", `søg\b|søgning`}, {"no", `søk\b|søke\b`}, {"fi", `hae\b|haku\b|hakusana|etsi\b`}, {"cs", `hledat|vyhledat|hledej|vyhledávání`}, {"hu", `keresés|keress\b|kereső`},
		{"ro", `caut[ăa]|căut|cautare`}, {"el", `αναζ[ήη]τηση`}, {"ar", `بحث|ابحث`}, {"fa", `جستجو|جست\x{200c}وجو`}, {"he", `חיפוש|חפש`}, {"vi", `tìm kiếm`}, {"id", `cari\b|pencarian`},
	}},
	{PurposeLogin, []pat{
		{"en", `\blog[ -]?in\b|\bsign[ -]?in\b|\blogin\b|\blog on\b|\bmember login|\bmy account|already (registered|a member|have an account)`},
		{"de", `anmelden|einloggen|login|bereits registriert|schon registriert`}, {"es", `iniciar sesión|entrar|acceder|ingresar|ya (estás|está|eres) registrado`}, {"fr", `connexion|se connecter|identifi|déjà (inscrit|client|membre)`},
		{"it", `accedi|accesso|entra|già registrato`}, {"pt", `entrar|iniciar sessão|acessar|login|já (é )?(registado|cadastrado)`}, {"nl", `inloggen|aanmelden`}, {"ru", `войти|вход|авторизац|уже зарегистр`},
		{"pl", `zaloguj|logowanie`}, {"tr", `giriş yap|oturum aç`}, {"ja", `ログイン|サインイン`}, {"zh", `登录|登入|登陸`}, {"ko", `로그인`},
		{"sv", `logga in|inloggning`}, {"da", `log ind|log på`}, {"no", `logg inn|logg på`}, {"fi", `kirjaudu`}, {"cs", `přihlásit|přihlášení|přihlaste`}, {"hu", `bejelentkez|belépés`},
		{"ro", `autentific|conectare|conecteaz`}, {"el", `σ[ύυ]νδεση|ε[ίι]σοδος`}, {"ar", `تسجيل الدخول|دخول`}, {"fa", `ورود`}, {"he", `התחברות|התחבר|כניסה`}, {"vi", `đăng nhập`}, {"id", `masuk\b|login`},
	}},
	{PurposeRegistration, []pat{
		{"en", `\bregist|\bsign[ -]?up\b|create (an |your )?account|\bjoin\b|new account|become a member|\benrol`},
		{"de", `registrier|konto erstellen|mitglied werden`}, {"es", `registr|crear (una )?cuenta|únete`}, {"fr", `inscri|créer (un )?compte|s'enregistrer`},
		{"it", `registr|iscriviti|crea (un )?account`}, {"pt", `cadastr|registr|criar conta`}, {"nl", `registr|account aanmaken|aanmelden`}, {"ru", `регистрац|зарегистр|создать аккаунт`},
		{"pl", `rejestr|załóż konto`}, {"tr", `kayıt ol|üye ol`}, {"ja", `会員登録|新規登録|登録`}, {"zh", `注册|註冊`}, {"ko", `회원가입|가입`},
		{"sv", `registrera|skapa (ett )?konto|bli medlem`}, {"da", `registrer|opret (en )?(konto|bruger)|bliv medlem`}, {"no", `registrer|opprett (en )?(konto|bruker)|bli medlem`}, {"fi", `rekisteröi|luo tili|liity jäseneksi`}, {"cs", `vytvořit účet|založit účet`}, {"hu", `regisztr|fiók létrehoz`},
		{"ro", `[îi]nregistr|creeaz[ăa] (un )?cont|creare cont`}, {"el", `εγγραφ|δημιουργ[ίι]α λογαριασμ`}, {"ar", `[إا]نشاء حساب|حساب جديد|التسجيل`}, {"fa", `ثبت[ \x{200c}]?نام`}, {"he", `הרשמה|הירשם`}, {"vi", `đăng ký tài khoản|đăng ký thành viên|tạo tài khoản`}, {"id", `daftar\b|buat akun|registrasi|pendaftaran`},
	}},
	{PurposePasswordRecovery, []pat{
		// A form without a password field that talks about passwords is
		// almost always the recovery form; checked after password fields.
		{"en", `forgot|forgotten|reset|recover|lost (your )?password|password|retrieve|remind`},
		{"de", `passwort|kennwort|vergessen|zurücksetzen`}, {"es", `contraseña|olvid|recuperar|restablecer`}, {"fr", `mot de passe|oubli|réinitialis|récupér`},
		{"it", `password|dimenticat|recupera|reimposta|ricorda`}, {"pt", `senha|esquec|recupera|redefinir`}, {"nl", `wachtwoord|vergeten|herstellen`}, {"ru", `парол|забыли|восстанов|напомнить`},
		{"pl", `hasł|zapomniał|odzyskaj|resetuj|przypomnij`}, {"tr", `şifre|parola|unuttum|sıfırla`}, {"ja", `パスワード|忘れ|再設定`}, {"zh", `密码|忘记|找回|重置`}, {"ko", `비밀번호|찾기|재설정`},
		{"sv", `glömt|lösenord|återställ`}, {"da", `glemt|adgangskode|nulstil`}, {"no", `glemt|passord|tilbakestill`}, {"fi", `unohdi|salasana|palauta|nollaa`}, {"cs", `zapomněl|heslo|obnovit`}, {"hu", `elfelejt|jelszó|visszaállít`},
		{"ro", `ai uitat|parol|resetare|recuperare|recupereaz`}, {"el", `ξεχ[άα]σατε|κωδικ|επαναφορ`}, {"ar", `نسيت|كلمة المرور|استعادة|[إا]عادة تعيين`}, {"fa", `فراموش|رمز عبور|بازیابی`}, {"he", `שכחת|סיסמ|איפוס|שחזור`}, {"vi", `quên mật khẩu|mật khẩu|khôi phục|đặt lại`}, {"id", `lupa|kata sandi|atur ulang`},
	}},
	{PurposeNewsletter, []pat{
		{"en", `newsletter|subscribe|mailing[ -]?list|sign up for|get (our )?(updates|news|offers)|stay (in touch|informed|updated)|e-?mail updates|e-?mails\b|join (our|the) (list|community|mailing)|keep (me )?(up to date|informed)|special offers|latest news|\bdeals\b`},
		{"de", `newsletter|abonnieren|anmelden zum`}, {"es", `boletín|suscrib|newsletter`}, {"fr", `newsletter|lettre d'information|s'abonner|abonnez`},
		{"it", `newsletter|iscriviti alla`}, {"pt", `newsletter|assine|inscreva|novidades|promoções`}, {"nl", `nieuwsbrief|aanmelden voor`}, {"ru", `рассылк|подпис`},
		{"pl", `newsletter|subskryb|zapisz się`}, {"tr", `bülten|abone`}, {"ja", `メルマガ|ニュースレター|配信登録`}, {"zh", `订阅|訂閱`}, {"ko", `뉴스레터|구독`},
		{"sv", `nyhetsbrev|prenumerera`}, {"da", `nyhedsbrev`}, {"no", `nyhetsbrev`}, {"fi", `uutiskirje`}, {"cs", `odběr novinek|odebírat`}, {"hu", `hírlev|feliratkoz`},
		{"ro", `aboneaz|abonare`}, {"el", `ενημερωτικ`}, {"ar", `النشرة|اشترك`}, {"fa", `خبرنامه`}, {"he", `ניוזלטר|דיוור`}, {"vi", `bản tin|nhận tin|đăng ký nhận`}, {"id", `berlangganan|buletin`},
	}},
	{PurposeOrder, []pat{
		{"en", `add to (cart|basket|bag|wishlist)|\bbuy\b|checkout|check out|\bcart\b|\bbasket\b|\bpurchase|\border now\b|place order|pre-?order|\bshop now\b|add to order|paypal|\bpay\b|payment`},
		{"de", `in den warenkorb|warenkorb|kaufen|bestellen|zur kasse`}, {"es", `añadir al carrito|carrito|comprar|pagar`}, {"fr", `ajouter au panier|panier|acheter|commander`},
		{"it", `aggiungi al carrello|carrello|acquista|compra|ordina`}, {"pt", `adicionar ao carrinho|carrinho|comprar`}, {"nl", `in winkelwagen|winkelwagen|bestellen|kopen`}, {"ru", `в корзину|корзин|купить|оформить заказ`},
		{"pl", `do koszyka|koszyk|kup(?:[^\p{L}\p{N}]|$)|kupuj|kupić`}, {"tr", `sepete ekle|sepet|satın al`}, {"ja", `カートに入れる|カート|購入|注文`}, {"zh", `加入购物车|购物车|购买|立即购买`}, {"ko", `장바구니|구매|주문`},
		{"sv", `lägg i varukorg|varukorg|köp\b|kassan`}, {"da", `læg i kurv|kurv\b|køb\b|kassen`}, {"no", `legg i handlekurv|handlekurv|kjøp\b`}, {"fi", `ostoskori|osta\b|kassalle`}, {"cs", `do košíku|košík|koupit`}, {"hu", `kosárba|kosár|megvásárol|megrendel`},
		{"ro", `adaug[ăa] [îi]n co[șş]|co[șş]ul|cump[ăa]r`}, {"el", `καλ[άα]θι|παραγγελ`}, {"ar", `السلة|شراء|اشتر الآن`}, {"fa", `سبد خرید|خرید|سفارش`}, {"he", `הוסף לסל|סל קניות|לקופה|רכישה`}, {"vi", `thêm vào giỏ|giỏ hàng|mua ngay|đặt hàng`}, {"id", `keranjang|beli\b|bayar`},
	}},
	{PurposeComment, []pat{
		{"en", `\bcomments?\b|leave a reply|post (a )?comment|\breply\b|add (a )?comment|write a review|\breview\b|discussion|respond`},
		{"de", `kommentar|antworten|bewertung`}, {"es", `comentario|responder|reseña`}, {"fr", `commentaire|répondre|avis`},
		{"it", `commento|commenti|rispondi|recensione`}, {"pt", `comentário|responder|avaliação`}, {"nl", `reactie|reageren|beoordeling`}, {"ru", `комментари|ответить|отзыв`},
		{"pl", `komentarz|odpowiedz|opinia`}, {"tr", `yorum|cevapla`}, {"ja", `コメント|返信|レビュー`}, {"zh", `评论|回复|留言板`}, {"ko", `댓글|리뷰`},
		{"fi", `kommentti|kommentoi`}, {"cs", `komentář`}, {"hu", `hozzászólás`}, {"ro", `comentariu`}, {"el", `σχ[όο]λι`}, {"ar", `تعليق`}, {"fa", `دیدگاه`}, {"he", `תגובה`}, {"vi", `bình luận`}, {"id", `komentar`},
	}},
	{PurposeBooking, []pat{
		{"en", `\bbook\b|booking|appointment|reservation|\breserve|schedule (a|an|your)|book (a|an|your|now|online)|request (an )?appointment|check availability|table for`},
		{"de", `termin|buchen|buchung|reservier`}, {"es", `reserva|cita|agendar`}, {"fr", `réserv|rendez-vous|prendre rdv`},
		{"it", `prenota|appuntamento`}, {"pt", `reserv|agendar|marcação|marcar consulta`}, {"nl", `reserveer|afspraak|boeken`}, {"ru", `бронир|записаться|запись на`},
		{"pl", `rezerwacj|zarezerwuj|umów wizytę`}, {"tr", `rezervasyon|randevu`}, {"ja", `予約`}, {"zh", `预约|预订|預約`}, {"ko", `예약`},
		{"sv", `boka|bokning|reserv`}, {"da", `bestil tid|reserv`}, {"no", `bestill time|reserv`}, {"fi", `varaa|varaus|ajanvaraus`}, {"cs", `rezerv|objednat se`}, {"hu", `foglal(j|ás|ása|ok)|időpont`},
		{"ro", `rezerv|programeaz[ăa]|f[ăa] o programare|programare online`}, {"el", `κρ[άα]τηση|ραντεβο[ύυ]`}, {"ar", `حجز|احجز|موعد`}, {"fa", `رزرو|نوبت`}, {"he", `קביעת תור|לקבוע תור|הזמנת (שולחן|מקום|חדר)`}, {"vi", `đặt lịch|đặt bàn|đặt phòng|đặt chỗ|lịch hẹn`}, {"id", `reservasi|janji temu`},
	}},
	{PurposeQuote, []pat{
		{"en", `\bquote\b|quotation|estimate|pricing request|get (a )?price|request (a )?(quote|proposal|price)|\bproposal\b`},
		{"de", `angebot anfordern|kostenvoranschlag|angebot einholen|unverbindliches angebot`}, {"es", `presupuesto|cotización|cotizar`}, {"fr", `devis`},
		{"it", `preventivo`}, {"pt", `orçamento|cotação`}, {"nl", `offerte`}, {"ru", `смет|коммерческое предложение|расч[её]т стоимости`},
		{"pl", `wycena|oferta`}, {"tr", `teklif`}, {"ja", `見積`}, {"zh", `报价|询价`}, {"ko", `견적`},
		{"sv", `offert|prisförslag|kostnadsförslag`}, {"da", `få (et )?(gratis |uforpligtende )?tilbud|uforpligtende tilbud|indhent tilbud|prisoverslag`}, {"no", `få (et )?(gratis |uforpliktende )?tilbud|uforpliktende tilbud|pristilbud|be om tilbud`}, {"fi", `tarjouspyyntö|pyydä (ilmainen )?tarjous|kustannusarvio`}, {"cs", `cenov[áou] nabídk|nezávazn[áou] nabídk|poptávk|kalkulac`}, {"hu", `árajánlat|ajánlatkér`},
		{"ro", `ofert[ăa] de pre[țţt]|cere(re)? (de )?ofert|solicit[ăa] (o )?ofert`}, {"el", `ζητ[ήη]στε προσφορ|α[ίι]τημα προσφορ|κοστολ[όο]γηση`}, {"ar", `عرض سعر|عرض أسعار|تسعير`}, {"fa", `استعلام قیمت|درخواست قیمت`}, {"he", `הצעת מחיר`}, {"vi", `báo giá`}, {"id", `penawaran harga|minta penawaran`},
	}},
	{PurposeCallback, []pat{
		{"en", `call[ -]?back|call me|request a call|we('ll| will) call you|ring me|phone me`},
		{"de", `rückruf|zurückrufen|ruf mich an`}, {"es", `le llamamos|llámame|devolución de llamada`}, {"fr", `rappel|être rappelé|rappelez-moi`},
		{"it", `richiama|vi richiamiamo|essere richiamato`}, {"pt", `ligamos para si|ligue-me|retorno de chamada`}, {"nl", `terugbel|bel mij`}, {"ru", `перезвон|обратный звонок`},
		{"pl", `oddzwon`}, {"tr", `geri arama|sizi arayalım`}, {"ja", `折り返し|コールバック`}, {"zh", `回电|回拨`}, {"ko", `콜백|전화 요청`},
		{"sv", `ring mig|bli uppringd`}, {"da", `ring mig op|bliv ringet op`}, {"no", `ring meg|bli oppringt`}, {"fi", `soittopyyntö|soita minulle`}, {"cs", `zavolejte mi|zpětné volání`}, {"hu", `visszahív`},
		{"ro", `suna[țţt]i-m[ăa]|apel invers`}, {"el", `καλ[έε]στε με`}, {"ar", `اتصل بي|معاودة الاتصال|طلب اتصال`}, {"fa", `درخواست تماس`}, {"he", `חזרו אליי|חזור אליי|שיחה חוזרת`}, {"vi", `gọi lại`}, {"id", `telepon balik|minta ditelepon`},
	}},
	{PurposeEnquiry, []pat{
		{"en", `enquir|inquir|request (more )?info|more information|ask (a|us) question|get in touch|register (your )?interest|expression of interest`},
		{"de", `anfrage|anfragen`}, {"es", `solicitud de información|más información|solicitar información`}, {"fr", `demande d'information|renseignement`},
		{"it", `richiesta (di )?informazioni|informazioni`}, {"pt", `pedido de informação|mais informações|solicitar informações`}, {"nl", `aanvraag|informatie aanvragen`}, {"ru", `заявк|запрос`},
		{"pl", `zapytanie`}, {"tr", `bilgi talebi`}, {"ja", `資料請求`}, {"zh", `咨询|詢問`}, {"ko", `상담`},
		{"sv", `förfrågan`}, {"da", `forespørgsel`}, {"no", `forespørsel`}, {"fi", `tiedustelu|yhteydenottopyyntö`}, {"cs", `dotaz`}, {"hu", `érdeklődés`},
		{"ro", `solicitare|cerere de informa`}, {"el", `α[ίι]τημα πληροφορ`}, {"ar", `استفسار`}, {"fa", `استعلام`}, {"he", `פנייה|בירור`}, {"vi", `tư vấn`}, {"id", `permintaan informasi`},
	}},
	{PurposeContact, []pat{
		{"en", `contact|get in touch|send (us )?(a |your )?message|write to us|drop us a line|reach (out|us)|talk to us|feedback`},
		{"de", `kontakt|nachricht senden|schreiben sie uns`}, {"es", `contacto|contáctenos|contactar|enviar mensaje|escríbenos`}, {"fr", `contact|contactez|écrivez-nous|envoyer (un|le|votre) message`},
		{"it", `contatt|scrivici|invia messaggio`}, {"pt", `contato|contacto|fale conosco|contacte`}, {"nl", `contact|neem contact|stuur (een )?bericht`}, {"ru", `контакт|связаться|обратная связь|написать нам`},
		{"pl", `kontakt|napisz do nas`}, {"tr", `iletişim|bize ulaşın`}, {"ja", `お問い合わせ|問い合わせ|お問合せ|連絡`}, {"zh", `联系|聯繫|联络`}, {"ko", `문의|연락`},
		{"sv", `kontakta oss|skicka meddelande`}, {"da", `skriv til os|send besked`}, {"no", `ta kontakt|send melding`}, {"fi", `ota yhteyttä|yhteydenotto|yhteystiedot|lähetä viesti`}, {"cs", `napište nám|odeslat zprávu`}, {"hu", `kapcsolat|írjon nekünk|üzenet küldése`},
		{"ro", `contacteaz|scrie-ne|trimite mesaj`}, {"el", `επικοινων`}, {"ar", `اتصل بنا|تواصل معنا|راسلنا`}, {"fa", `تماس با ما`}, {"he", `צור קשר|צרו קשר|יצירת קשר`}, {"vi", `liên hệ|gửi tin nhắn`}, {"id", `hubungi kami|kontak|kirim pesan`},
	}},
}

// accountWords: creating an account — registration even when the form
// asks only for an email (a password may come by mail), never a newsletter.
var accountWords = []pat{
	{"en", `create (an |your |my )?(free |new )?account|new account|open an account|become a member|new (customer|user) registration|start (your |a |my )?(free )?trial\b|\bfree trial\b`},
	{"de", `konto (erstellen|anlegen|eröffnen)|kundenkonto anlegen|neues konto`},
	{"es", `crea(r)? (una |tu )?cuenta|nueva cuenta|hazte (socio|miembro)`},
	{"fr", `cré(er|ez) (votre |un |mon )?compte|nouveau compte|devenir membre`},
	{"it", `crea (un |il tuo )?account|nuovo account|diventa (socio|membro)`},
	{"pt", `cria(r)? (uma |sua )?conta|nova conta|torne-se membro`},
	{"nl", `account aanmaken|maak een account|nieuw account|lid worden`},
	{"ru", `созда(ть|йте) (учетн|аккаунт|профил)|нов(ый|ая) (аккаунт|учетн)`},
	{"pl", `załóż konto|utwórz konto|nowe konto`},
	{"tr", `hesap oluştur|yeni hesap|üye ol`},
	{"ja", `アカウント(を)?作成|新規会員`},
	{"zh", `创建(账户|帐户|账号)|注册(账号|帐号)`},
	{"ko", `계정 (만들기|생성)`},
	{"sv", `skapa (ett |ditt )?konto|nytt konto|bli medlem`},
	{"da", `opret (en |din )?(konto|bruger)|ny konto|bliv medlem`},
	{"no", `opprett (en |din )?(konto|bruker)|ny konto|bli medlem`},
	{"fi", `luo (uusi )?tili|uusi tili`},
	{"cs", `(vytvořit|založit|vytvořte|založte) (si )?účet|nový účet`},
	{"hu", `fiók létrehozása|új fiók`},
	{"ro", `creeaz[ăa] (un )?cont|creare cont|cont nou`},
	{"el", `δημιουργ\p{L}* λογαριασμ|ν[έε]ος λογαριασμ`},
	{"ar", `[إا]نشاء حساب|حساب جديد`},
	{"fa", `ایجاد حساب|ساخت حساب`},
	{"he", `יצירת חשבון|צור חשבון|חשבון חדש`},
	{"vi", `tạo tài khoản|tài khoản mới`},
	{"id", `buat akun|akun baru`},
}

// cardWords: a payment card field, named by its label or placeholder. A
// form that takes card details charges money: it is an order, never a
// customer action, whatever else it asks for.
var cardWords = []pat{
	{"en", `\bcard ?(number|no\b|num\b)|\bname on (the )?card|\bcard ?holder|\bcvv|\bcvc|\bccv\b|card (security|verification) code|\bexpir(y|ation) (date|month|year)|\bvalid (thru|through|until)|\bcredit card|\bdebit card`},
	{"de", `kartennummer|karteninhaber|prüfnummer|prüfziffer|kreditkarte|gültig bis|ablaufdatum`},
	{"es", `número de (la )?tarjeta|titular de la tarjeta|tarjeta de (crédito|débito)|fecha de (caducidad|vencimiento)`},
	{"fr", `numéro de (la )?carte|titulaire de la carte|carte (bancaire|de crédit)|date d'expiration|cryptogramme`},
	{"it", `numero (della )?carta|titolare (della )?carta|carta di credito|data di scadenza`},
	{"pt", `número do cartão|titular do cartão|cartão de (crédito|débito)|validade do cartão`},
	{"nl", `kaartnummer|kaarthouder|creditcard|vervaldatum`},
	{"ru", `номер карты|держатель карты|срок действия карты|банковская карта`},
	{"pl", `numer karty|właściciel karty|karta kredytowa|data ważności karty`},
	{"tr", `kart numarası|kart sahibi|kredi kartı|son kullanma tarihi`},
	{"ja", `カード番号|カード名義|有効期限|セキュリティコード|クレジットカード`},
	{"zh", `卡号|信用卡|有效期|安全码|银行卡`},
	{"ko", `카드 ?번호|카드 소유자|유효 ?기간|신용카드`},
	{"sv", `kortnummer|kortinnehavare|giltig till|kreditkort`},
	{"da", `kortnummer|kortholder|udløbsdato|kreditkort`},
	{"no", `kortnummer|kortinnehaver|utløpsdato|kredittkort`},
	{"fi", `kortin numero|kortinhaltija|luottokortti`},
	{"cs", `číslo karty|držitel karty|platební karta|platnost karty`},
	{"hu", `kártyaszám|kártyabirtokos|bankkártya|hitelkártya`},
	{"ro", `num[ăa]rul cardului|num[ăa]r card|titular card|card de credit`},
	{"el", `αριθμ[όο]ς κ[άα]ρτας|κ[άα]τοχος κ[άα]ρτας|πιστωτικ[ήη] κ[άα]ρτα`},
	{"ar", `رقم البطاقة|حامل البطاقة|بطاقة الائتمان`},
	{"fa", `شماره کارت|کارت اعتباری`},
	{"he", `מספר כרטיס|בעל הכרטיס|כרטיס אשראי`},
	{"vi", `số thẻ|chủ thẻ|thẻ tín dụng`},
	{"id", `nomor kartu|pemegang kartu|kartu kredit`},
}

// checkoutWords: a checkout's billing or delivery details, in field
// names and labels or in the form's heading, attributes and submit
// control. With no message to send, such a form is an order.
var checkoutWords = []pat{
	{"en", `\bbilling\b|\bshipping\b|\bdelivery (address|details|method)|\bcheck ?out\b|\bship to\b|\bbill to\b`},
	{"de", `rechnungsadresse|rechnungsanschrift|lieferadresse|lieferanschrift|versandadresse|zur kasse`},
	{"es", `facturación|dirección de (envío|entrega)|datos de envío|finalizar (la )?compra`},
	{"fr", `facturation|adresse de livraison|mode de livraison|passer (la )?commande`},
	{"it", `fatturazione|indirizzo di (spedizione|consegna)|spedizione`},
	{"pt", `faturação|faturamento|endereço de (entrega|envio|cobrança)|finalizar compra`},
	{"nl", `factuuradres|bezorgadres|verzendadres|afleveradres|afrekenen`},
	{"ru", `адрес доставки|оформление заказа|оплата и доставка`},
	{"pl", `adres (dostawy|wysyłki)|dane do faktury|do kasy`},
	{"tr", `fatura adresi|teslimat adresi|kargo adresi`},
	{"ja", `お届け先|配送先|請求先|ご注文手続き`},
	{"zh", `收货地址|配送地址|账单地址|结算|结账`},
	{"ko", `배송지|배송 ?주소|청구 ?주소`},
	{"sv", `leveransadress|faktureringsadress|till kassan`},
	{"da", `leveringsadresse|faktureringsadresse|til kassen`},
	{"no", `leveringsadresse|fakturaadresse|til kassen`},
	{"fi", `toimitusosoite|laskutusosoite|kassalle`},
	{"cs", `doručovací adresa|fakturační adresa|pokladn`},
	{"hu", `szállítási cím|számlázási cím|pénztár`},
	{"ro", `adresa de livrare|adresa de facturare|date de facturare`},
	{"el", `διε[ύυ]θυνση αποστολ|στοιχε[ίι]α χρ[έε]ωσης|ολοκλ[ήη]ρωση αγορ`},
	{"ar", `عنوان الشحن|عنوان الفواتير|إتمام الشراء`},
	{"fa", `آدرس ارسال|تسویه حساب`},
	{"he", `כתובת למשלוח|כתובת לחיוב|לקופה`},
	{"vi", `địa chỉ giao hàng|địa chỉ thanh toán`},
	{"id", `alamat pengiriman|alamat penagihan`},
}

// payWords: paying, said in the submit control or heading — the order
// table's words for the step that charges money.
var payWords = []pat{
	{"en", `\bpay (now|securely|with)\b|\bproceed to payment|\bcomplete (purchase|payment)`},
	{"de", `bezahlen|zahlungspflichtig|zur zahlung`}, {"es", `pagar|pago seguro|realizar pago`}, {"fr", `payer|paiement`},
	{"it", `paga\b|pagamento`}, {"pt", `pagar|pagamento`}, {"nl", `betalen|afrekenen`}, {"ru", `оплат`},
	{"pl", `zapłać|płatnoś`}, {"tr", `ödeme|öde\b`}, {"ja", `支払|決済`}, {"zh", `支付|付款`}, {"ko", `결제`},
	{"sv", `betala|betalning`}, {"da", `betal\b|betaling`}, {"no", `betal\b|betaling`}, {"fi", `maksa\b|maksaa`}, {"cs", `zaplatit|platba`}, {"hu", `fizetés|fizetek`},
	{"ro", `plăte[șs]te|plat[ăa](?:[^\p{L}\p{N}]|$)`}, {"el", `πληρωμ`}, {"ar", `الدفع|ادفع`}, {"fa", `پرداخت`}, {"he", `תשלום|לתשלום`}, {"vi", `thanh toán`}, {"id", `bayar|pembayaran`},
}

// ---- compiled forms --------------------------------------------------

type compiled struct {
	lang string
	src  string
	re   *regexp.Regexp
	hit  string // what matched, set by match and anyMatch
	// need: every match of re contains one of these strings (folded by
	// foldCanon where the pattern ignores case); nil when re requires no
	// literal. A text that contains none of them is not matched without
	// running re: most patterns meet most texts that way (prefilter.go).
	need []need
}

// wordStart languages: a pattern must start at the beginning of a word
// (Italian "ente" is not in "enter", Russian "почта" is not "почтовый").
// German and Dutch build compounds ("Geburtsdatum", "telefoonnummer") and
// CJK has no spaces, so their patterns match anywhere; English patterns
// carry their own \b where needed ("youremail" is an email). Arabic,
// Persian and Hebrew attach articles and prepositions to the word
// ("البريد", "לאתר"), so theirs match anywhere too. The Nordic languages and
// Finnish also build compounds but are anchored: a pattern then names the
// compound's first part ("telefon" in "telefonnummer", "sähköposti" in
// "sähköpostiosoite") and spells out the compounds whose key word comes
// last ("efternamn", "postort"); so "användarnamn" is not a "namn".
var wordStart = map[string]bool{"es": true, "fr": true, "it": true, "pt": true, "ru": true, "pl": true, "tr": true,
	"sv": true, "da": true, "no": true, "fi": true, "cs": true, "hu": true, "ro": true, "el": true, "vi": true, "id": true,
	"lt": true, "lv": true, "et": true, "sk": true, "sl": true, "hr": true, "bg": true, "uk": true}

func compile(ps []pat) []compiled {
	out := make([]compiled, 0, len(ps))
	for _, p := range ps {
		if asciiBoundaryBeside(p.re) {
			panic(fmt.Sprintf("classify: pattern %q (%s): \\b beside a letter outside ASCII is no word boundary (Go's \\b is ASCII); write (?:[^\\p{L}\\p{N}]|$) or (?:^|[^\\p{L}\\p{N}])", p.re, p.lang))
		}
		src := foldLetters(p.re)
		if wordStart[p.lang] {
			src = `(?:^|[^\p{L}\p{N}])(?:` + src + `)`
		}
		out = append(out, compiled{lang: p.lang, src: p.re, re: regexp.MustCompile(src), need: required(src)})
	}
	return out
}

type compiledRule struct {
	fieldRule
	cpos, cneg []compiled
}

func compileRules(rs []fieldRule) []compiledRule {
	out := make([]compiledRule, 0, len(rs))
	for _, r := range rs {
		out = append(out, compiledRule{fieldRule: r, cpos: compile(r.pos), cneg: compile(r.neg)})
	}
	return out
}

var (
	cNotOurs      = compileRules(notOurs)
	cCheckbox     = compileRules(checkboxRules)
	cFields       = compileRules(fieldRules)
	cChoiceSubj   = compileRules(choiceSubject)
	cHoneypotText = compile(honeypotText)
	cAccount      = compile(accountWords)
	cCard         = compile(cardWords)
	cCheckout     = compile(checkoutWords)
	cPay          = compile(payWords)
)

type compiledPurpose struct {
	purpose Purpose
	pos     []compiled
}

var cPurpose = func() []compiledPurpose {
	out := make([]compiledPurpose, 0, len(purposeWords))
	for _, r := range purposeWords {
		out = append(out, compiledPurpose{purpose: r.purpose, pos: compile(r.pos)})
	}
	return out
}()

// match returns the first positive pattern of r that matches the scanned
// text, unless a negative pattern matches too.
func (r compiledRule) match(sc *scan) (compiled, bool) {
	if sc.text == "" {
		return compiled{}, false
	}
	for _, n := range r.cneg {
		if n.matches(sc) {
			return compiled{}, false
		}
	}
	for _, p := range r.cpos {
		if p.matches(sc) {
			p.hit = p.find(sc.text)
			return p, true
		}
	}
	return compiled{}, false
}

// anyMatch returns the first pattern of cs that matches text.
func anyMatch(cs []compiled, text string) (compiled, bool) {
	sc := scanText(text)
	for _, c := range cs {
		if c.matches(sc) {
			c.hit = c.find(sc.text)
			return c, true
		}
	}
	return compiled{}, false
}

// find returns the words a pattern matched in text, without the word
// boundary character a wordStart pattern consumes.
func (c compiled) find(text string) string {
	return strings.TrimLeftFunc(c.re.FindString(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// why describes a match for evidence: `"appointment" (en)`.
func (c compiled) why() string { return fmt.Sprintf("%q (%s)", c.hit, c.lang) }

// ---- text normalisation -----------------------------------------------

var (
	camel    = regexp.MustCompile(`([a-z])([A-Z])`)
	nonWord  = regexp.MustCompile(`[\s_\-\[\]\.:/\\()$#@+,;=]+`)
	wsRun    = regexp.MustCompile(`\s+`)
	digitRun = regexp.MustCompile(`\d+`)
)

// words turns a name or id into lower-case words: "yourEmail",
// "your-email", "wpforms[fields][3]" → "your email", "wpforms fields".
func words(s string) string {
	s = camel.ReplaceAllString(s, "$1 $2")
	s = nonWord.ReplaceAllString(s, " ")
	s = digitRun.ReplaceAllString(s, " ")
	return strings.TrimSpace(wsRun.ReplaceAllString(strings.ToLower(s), " "))
}

// text lower-cases and collapses whitespace; a trailing "*" or ":" of a
// label is dropped.
func text(s string) string {
	s = strings.ToLower(strings.TrimSpace(wsRun.ReplaceAllString(s, " ")))
	return strings.TrimSpace(strings.TrimRight(s, "*: "))
}
