package uct_test

import (
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/uct"
)

// The front ends take a uct.Engine as they take a search.Engine.
var _ protocol.Engine = (*uct.Engine)(nil)
