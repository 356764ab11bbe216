package export

import (
	"os"
	"testing"

	"github.com/gleaner/gleaner/store/storetest"
)

// TestMain stops the throwaway PostgreSQL cluster a test started.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }
