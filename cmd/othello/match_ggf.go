package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
)

// A minimal GGF (Generic Game Format, as used by GGS and NBoard) writer for the games of a
// match and for the NBoard "set game" command: the start position, the players, the moves with
// passes as PA, and the result from black's view.

type ggfGame struct {
	black, white string
	start        board.Board
	moves        []board.Square // passes as NoSquare
	result       string         // e.g. "+12.000", "-4.000", "0.000", "" while unfinished
	comment      string
	date         time.Time
}

// ggfBoard writes a board as GGF's BO value: size, 64 squares (* black, O white, - empty) and
// the side to move.
func ggfBoard(b board.Board) string {
	var sb strings.Builder
	sb.WriteString("8 ")
	black, white := b.Black(), b.White()
	for sq := 0; sq < 64; sq++ {
		switch {
		case black>>sq&1 != 0:
			sb.WriteByte('*')
		case white>>sq&1 != 0:
			sb.WriteByte('O')
		default:
			sb.WriteByte('-')
		}
	}
	if b.BlackToMove {
		sb.WriteString(" *")
	} else {
		sb.WriteString(" O")
	}
	return sb.String()
}

func (g *ggfGame) String() string {
	var sb strings.Builder
	sb.WriteString("(;GM[Othello]PC[GoThello match]")
	if !g.date.IsZero() {
		fmt.Fprintf(&sb, "DT[%s]", g.date.UTC().Format("2006.01.02_15:04:05.UTC"))
	}
	fmt.Fprintf(&sb, "PB[%s]PW[%s]", ggfText(g.black), ggfText(g.white))
	if g.result != "" {
		fmt.Fprintf(&sb, "RE[%s]", g.result)
	}
	fmt.Fprintf(&sb, "TY[8]BO[%s]", ggfBoard(g.start))
	black := g.start.BlackToMove
	for _, m := range g.moves {
		tag := "W"
		if black {
			tag = "B"
		}
		mv := "PA"
		if m != board.NoSquare {
			mv = strings.ToUpper(m.String())
		}
		fmt.Fprintf(&sb, "%s[%s]", tag, mv)
		black = !black
	}
	if g.comment != "" {
		fmt.Fprintf(&sb, "C[%s]", ggfText(g.comment))
	}
	sb.WriteString(";)")
	return sb.String()
}

// ggfText keeps a property value from closing its brackets.
func ggfText(s string) string {
	return strings.NewReplacer("]", ")", "[", "(", "\\", "/", "\n", " ").Replace(s)
}
