package benchmark

import (
	"context"
	"os"
	"testing"
)

func TestZZProfile(t *testing.T) {
	if os.Getenv("FL_PROFILE") == "" {
		t.Skip()
	}
	_, err := Run(context.Background(), Options{SkipThroughput: true, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
}
