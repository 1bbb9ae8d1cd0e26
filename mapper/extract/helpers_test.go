package extract_test

import "errors"

func asError(err error, target any) bool { return errors.As(err, target) }
