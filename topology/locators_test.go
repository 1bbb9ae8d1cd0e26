package topology

import "testing"

func TestExpression(t *testing.T) {
	role := &LocatorDescriptor{Kind: StrategyRole, Role: strp("button"), Name: strp(`Don't "wait" <now>`), Exact: true}
	tests := []struct {
		name string
		d    *LocatorDescriptor
		want string
	}{
		{"role with quotes", role, `getByRole('button', { name: 'Don\'t "wait" <now>', exact: true })`},
		{"default test id", &LocatorDescriptor{Kind: StrategyTestID, Attribute: strp("data-testid"), Value: strp("go")}, `getByTestId('go')`},
		{"other test id attribute", &LocatorDescriptor{Kind: StrategyTestID, Attribute: strp("data-qa"), Value: strp("go")}, `locator('[data-qa="go"]')`},
		{"label", &LocatorDescriptor{Kind: StrategyLabel, Value: strp("Email")}, `getByLabel('Email', { exact: true })`},
		{"css path", &LocatorDescriptor{Kind: StrategyCSSPath, Selector: strp("main > form:nth-of-type(2)")}, `main > form:nth-of-type(2)`},
		{"scoped", &LocatorDescriptor{Kind: StrategyScoped, Scope: &LocatorDescriptor{Kind: StrategyCSSPath, Selector: strp("footer > form")}, Target: role},
			`locator('footer > form').getByRole('button', { name: 'Don\'t "wait" <now>', exact: true })`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := expression(tc.d); got != tc.want {
				t.Errorf("expression = %s\nwant         %s", got, tc.want)
			}
		})
	}
}

func TestBestSemanticSkipsStructural(t *testing.T) {
	locs := []LocatorCandidate{
		{Strategy: StrategyCSSPath, Score: 7},
		{Strategy: StrategyScoped, Score: 2.5},
		{Strategy: StrategyText, Score: 5},
		{Strategy: StrategyRole, Score: 2},
	}
	if b := bestSemantic(locs); b == nil || b.Strategy != StrategyRole {
		t.Errorf("bestSemantic = %+v, want the role candidate", b)
	}
	if b := bestSemantic(locs[:2]); b != nil {
		t.Errorf("bestSemantic of structural and scoped only = %+v, want nil", b)
	}
}
