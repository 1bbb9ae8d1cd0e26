package mapper

import (
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// intentWords are the words that say a link, a tool or a structured-data
// action leads to something a customer can get done, by action kind, in the
// languages small-business sites are written in. Form purpose is classify's
// job; this list only reads short texts (link text, URL path, tool name).
// Order matters: the first kind whose word matches wins, so the narrower
// intents (quote, callback) come before the broad ones (contact).
var intentWords = []struct {
	kind  shared.ActionKind
	words []string
}{
	{shared.KindQuote, []string{"quote", "estimate", "pricing-request", "angebot", "kostenvoranschlag", "presupuesto", "cotizacion", "cotización", "devis", "preventivo", "offerte", "orçamento", "orcamento", "見積", "报价", "견적", "teklif"}},
	{shared.KindCallback, []string{"callback", "call-back", "call back", "call me", "rückruf", "ruckruf", "rappel", "richiamata", "terugbel", "llamada", "retorno"}},
	{shared.KindBooking, []string{"book", "booking", "appointment", "reserve", "reservation", "schedule", "termin", "buchen", "buchung", "reservieren", "reserva", "reservar", "cita", "réserver", "reserver", "rendez-vous", "rdv", "prenota", "prenotazione", "appuntamento", "afspraak", "boeken", "reserveren", "agendar", "marcar", "予約", "预约", "預約", "예약", "randevu", "rezerwacja", "запис", "бронир"}},
	{shared.KindEnquiry, []string{"enquiry", "enquire", "inquiry", "inquire", "availability", "anfrage", "consulta", "demande", "richiesta", "aanvraag", "solicitud", "pedido", "お問い合わせ", "问询", "咨询", "문의"}},
	{shared.KindContact, []string{"contact", "get in touch", "get-in-touch", "message", "email us", "kontakt", "contacto", "contato", "contatti", "contattaci", "nous-contacter", "contactez", "neem contact", "связ", "контакт", "联系", "連絡", "연락", "iletişim", "iletisim"}},
}

// intentOf returns the action kind a short text speaks of, and the word that
// said so; ok is false when none does.
func intentOf(text string) (kind shared.ActionKind, word string, ok bool) {
	t := strings.ToLower(text)
	t = strings.NewReplacer("_", " ", "/", " ").Replace(t)
	for _, in := range intentWords {
		for _, w := range in.words {
			if containsWord(t, w) {
				return in.kind, w, true
			}
		}
	}
	return shared.KindUnknown, "", false
}

// intentOfFirst reads texts in order of how deliberately they name the
// action (a tool's name, then its title, then its description) and returns
// the kind the first one that names any says: "request_callback" described
// as "… about a repair, a quote or a question" is a callback.
func intentOfFirst(texts ...string) (kind shared.ActionKind, word string, ok bool) {
	for _, t := range texts {
		if kind, word, ok = intentOf(t); ok {
			return kind, word, ok
		}
	}
	return shared.KindUnknown, "", false
}

// containsWord reports whether w occurs in t starting at a word boundary
// (so "book" matches "booking" and "book-now" but not "facebook"). Words
// outside ASCII match anywhere: those scripts do not separate words.
func containsWord(t, w string) bool {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			ascii = false
			break
		}
	}
	for from := 0; ; {
		i := strings.Index(t[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if !ascii || i == 0 || !isWordByte(t[i-1]) {
			return true
		}
		from = i + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}
