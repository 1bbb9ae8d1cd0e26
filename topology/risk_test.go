package topology

import "testing"

func TestClassifyRisk(t *testing.T) {
	form := &Anchor{Kind: "form", Tag: "form", Selector: "#f"}
	page := "https://clinic.example/book"
	tests := []struct {
		name string
		el   ActionableElement
		want RiskCategory
	}{
		{"delete button", ActionableElement{Tag: "button", Role: "button", AccessibleName: "Delete account"}, RiskDestructive},
		{"destructive id only", ActionableElement{Tag: "button", Role: "button", AccessibleName: "×", Attributes: map[string]string{"id": "removeItem"}}, RiskDestructive},
		{"cancel booking", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Cancel my booking", Attributes: map[string]string{"href": "/bookings/3/cancel"}}, RiskDestructive},
		{"checkout", ActionableElement{Tag: "button", Role: "button", AccessibleName: "Checkout"}, RiskPayment},
		{"log in link", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Log in", Attributes: map[string]string{"href": "/login"}}, RiskAuth},
		{"form submit", ActionableElement{Tag: "button", Role: "button", AccessibleName: "Request booking", Context: ElementContext{Form: form}}, RiskSubmit},
		{"formless send", ActionableElement{Tag: "button", Role: "button", AccessibleName: "Send"}, RiskSubmit},
		{"input submit", ActionableElement{Tag: "input", Role: "button", AccessibleName: "Go", Attributes: map[string]string{"type": "submit"}, Context: ElementContext{Form: form}}, RiskSubmit},
		{"text input", ActionableElement{Tag: "input", Role: "textbox", AccessibleName: "Delete reason", Attributes: map[string]string{"type": "text"}}, RiskFormFill},
		{"select", ActionableElement{Tag: "select", Role: "combobox", AccessibleName: "Day"}, RiskFormFill},
		{"book now trigger", ActionableElement{Tag: "button", Role: "button", AccessibleName: "Book now", Attributes: map[string]string{"type": "button"}}, RiskDisclosure},
		{"menu toggle", ActionableElement{Tag: "button", Role: "button", AccessibleName: "Menu", Attributes: map[string]string{"aria-expanded": "false"}}, RiskDisclosure},
		// A typeless button inside a form submits it, whatever its ARIA says.
		{"toggle inside a form", ActionableElement{Tag: "button", Role: "button", AccessibleName: "More", Attributes: map[string]string{"aria-expanded": "false"}, Context: ElementContext{Form: form}}, RiskSubmit},
		{"type=button toggle in a form", ActionableElement{Tag: "button", Role: "button", AccessibleName: "More", Attributes: map[string]string{"type": "button", "aria-expanded": "false"}, Context: ElementContext{Form: form}}, RiskDisclosure},
		{"tab", ActionableElement{Tag: "div", Role: "tab", AccessibleName: "Prices"}, RiskDisclosure},
		{"summary", ActionableElement{Tag: "summary", Role: "DisclosureTriangle", AccessibleName: "Opening hours"}, RiskDisclosure},
		{"same-origin link", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Our team", Attributes: map[string]string{"href": "/team"}}, RiskNavigation},
		{"fragment link", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Prices", Attributes: map[string]string{"href": "#prices"}}, RiskDisclosure},
		// Same origin however the link writes it: the default port, the host's case.
		{"same origin, default port", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Our team", Attributes: map[string]string{"href": "https://clinic.example:443/team"}}, RiskNavigation},
		{"same origin, host in capitals", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Our team", Attributes: map[string]string{"href": "https://CLINIC.example/team"}}, RiskNavigation},
		{"another port", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Staff", Attributes: map[string]string{"href": "https://clinic.example:8443/staff"}}, RiskExternal},
		{"other host", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Partner", Attributes: map[string]string{"href": "https://other.example/"}}, RiskExternal},
		{"mailto", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Email us", Attributes: map[string]string{"href": "mailto:hi@clinic.example"}}, RiskExternal},
		{"new window", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Map", Attributes: map[string]string{"href": "/map", "target": "_blank"}}, RiskExternal},
		{"download", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Price list", Attributes: map[string]string{"href": "/prices.pdf", "download": ""}}, RiskExternal},
		{"link saying send", ActionableElement{Tag: "a", Role: "link", AccessibleName: "Send us a message", Attributes: map[string]string{"href": "/contact"}}, RiskNavigation},
		{"onclick div", ActionableElement{Tag: "div", Role: "div", AccessibleName: "Card"}, RiskUnknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.el.Attributes == nil {
				tc.el.Attributes = map[string]string{}
			}
			got := ClassifyRisk(&tc.el, page)
			if got.Category != tc.want {
				t.Errorf("category = %s (evidence %v), want %s", got.Category, got.Evidence, tc.want)
			}
			if got.Level != riskPolicy[tc.want].level {
				t.Errorf("level = %s, want %s", got.Level, riskPolicy[tc.want].level)
			}
			if len(got.Evidence) < 2 {
				t.Errorf("evidence %v: want the rule and the policy version", got.Evidence)
			}
		})
	}
}

// Every category has a policy entry and only safe ones are explorable.
func TestRiskPolicyIsClosed(t *testing.T) {
	explorable := map[RiskCategory]bool{RiskNavigation: true, RiskDisclosure: true}
	if len(riskPolicy) != len(riskCategories) {
		t.Fatalf("%d policy entries for %d categories", len(riskPolicy), len(riskCategories))
	}
	for _, c := range riskCategories {
		p, ok := riskPolicy[c]
		if !ok {
			t.Errorf("no policy for %s", c)
		}
		if p.explorable != explorable[c] {
			t.Errorf("%s explorable = %v, want %v", c, p.explorable, explorable[c])
		}
	}
}
