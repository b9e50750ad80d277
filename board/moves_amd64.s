#include "textflag.h"

// The four axis pairs of the legal-move fill in the four 64-bit lanes of an AVX2 register:
// shifts 1 (rows), 8 (files), 7 and 9 (diagonals), each with its own mask of the discs a run
// may cross (files a and h excluded except for the vertical lane). Same algorithm and result as
// legalMovesGo.
DATA moveShifts<>+0(SB)/8, $1
DATA moveShifts<>+8(SB)/8, $8
DATA moveShifts<>+16(SB)/8, $7
DATA moveShifts<>+24(SB)/8, $9
GLOBL moveShifts<>(SB), RODATA|NOPTR, $32

DATA moveMasks<>+0(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA moveMasks<>+8(SB)/8, $0xffffffffffffffff
DATA moveMasks<>+16(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA moveMasks<>+24(SB)/8, $0x7e7e7e7e7e7e7e7e
GLOBL moveMasks<>(SB), RODATA|NOPTR, $32

// func legalMovesAVX2(p, o uint64) uint64
TEXT ·legalMovesAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVQ o+8(FP), BX
	VMOVQ AX, X0
	VPBROADCASTQ X0, Y0          // p in every lane
	VMOVQ BX, X1
	VPBROADCASTQ X1, Y1          // o in every lane
	VMOVDQU moveShifts<>(SB), Y2 // s
	VPADDQ Y2, Y2, Y3            // 2s
	VPAND moveMasks<>(SB), Y1, Y4 // m: the opponent discs a run may cross

	VPSLLVQ Y2, Y0, Y5
	VPAND Y4, Y5, Y5             // l = m & (p << s)
	VPSRLVQ Y2, Y0, Y6
	VPAND Y4, Y6, Y6             // r = m & (p >> s)
	VPSLLVQ Y2, Y5, Y7
	VPAND Y4, Y7, Y7
	VPOR Y7, Y5, Y5              // l |= m & (l << s)
	VPSRLVQ Y2, Y6, Y7
	VPAND Y4, Y7, Y7
	VPOR Y7, Y6, Y6              // r |= m & (r >> s)
	VPSLLVQ Y2, Y4, Y8
	VPAND Y4, Y8, Y8             // pl = m & (m << s)
	VPSRLVQ Y2, Y8, Y9           // pr = pl >> s
	VPSLLVQ Y3, Y5, Y7
	VPAND Y8, Y7, Y7
	VPOR Y7, Y5, Y5              // l |= pl & (l << 2s)
	VPSRLVQ Y3, Y6, Y7
	VPAND Y9, Y7, Y7
	VPOR Y7, Y6, Y6              // r |= pr & (r >> 2s)
	VPSLLVQ Y3, Y5, Y7
	VPAND Y8, Y7, Y7
	VPOR Y7, Y5, Y5
	VPSRLVQ Y3, Y6, Y7
	VPAND Y9, Y7, Y7
	VPOR Y7, Y6, Y6
	VPSLLVQ Y2, Y5, Y5
	VPSRLVQ Y2, Y6, Y6
	VPOR Y6, Y5, Y5              // the moves of each lane

	VEXTRACTI128 $1, Y5, X6
	VPOR X6, X5, X5
	VPSHUFD $0x4e, X5, X6
	VPOR X6, X5, X5
	VMOVQ X5, CX
	VZEROUPPER
	ORQ BX, AX
	ANDNQ CX, AX, AX             // moves &^ (p | o)
	MOVQ AX, ret+16(FP)
	RET

// func cpuHasAVX2() bool: the processor has AVX2 and the operating system saves the YMM
// registers (CPUID leaf 1 OSXSAVE and AVX, XGETBV XCR0 bits 1-2, CPUID leaf 7 AVX2).
TEXT ·cpuHasAVX2(SB), NOSPLIT, $0-1
	MOVB $0, ret+0(FP)
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	MOVL CX, DX
	ANDL $0x18000000, DX // OSXSAVE (27) and AVX (28)
	CMPL DX, $0x18000000
	JNE no
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL $5, BX // AVX2
	JCC no
	MOVB $1, ret+0(FP)
no:
	RET

// func legalMovesBest(p, o uint64) uint64: legalMovesAVX2 where the processor has AVX2, else
// legalMovesGo, reached by a jump so that LegalMoves, one call, is inlined.
TEXT ·legalMovesBest(SB), NOSPLIT, $0-24
	CMPB ·hasAVX2(SB), $0
	JEQ noavx2
	JMP ·legalMovesAVX2(SB)
noavx2:
	JMP ·legalMovesGo(SB)

// func legalMovesBothAVX2(p, o uint64) (pm, om uint64): the fill of legalMovesAVX2 for both
// sides at once, the second side's instructions interleaved with the first's (Y10-Y15), so
// that the two chains of dependent shifts overlap.
TEXT ·legalMovesBothAVX2(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), AX
	MOVQ o+8(FP), BX
	VMOVQ AX, X0
	VPBROADCASTQ X0, Y0          // p in every lane
	VMOVQ BX, X1
	VPBROADCASTQ X1, Y1          // o in every lane
	VMOVDQU moveShifts<>(SB), Y2 // s
	VPADDQ Y2, Y2, Y3            // 2s
	VPAND moveMasks<>(SB), Y1, Y4 // m: the opponent discs a run of p may cross
	VPAND moveMasks<>(SB), Y0, Y10 // the same for o's runs

	VPSLLVQ Y2, Y0, Y5
	VPSLLVQ Y2, Y1, Y11
	VPAND Y4, Y5, Y5
	VPAND Y10, Y11, Y11
	VPSRLVQ Y2, Y0, Y6
	VPSRLVQ Y2, Y1, Y12
	VPAND Y4, Y6, Y6
	VPAND Y10, Y12, Y12
	VPSLLVQ Y2, Y5, Y7
	VPSLLVQ Y2, Y11, Y13
	VPAND Y4, Y7, Y7
	VPAND Y10, Y13, Y13
	VPOR Y7, Y5, Y5
	VPOR Y13, Y11, Y11
	VPSRLVQ Y2, Y6, Y7
	VPSRLVQ Y2, Y12, Y13
	VPAND Y4, Y7, Y7
	VPAND Y10, Y13, Y13
	VPOR Y7, Y6, Y6
	VPOR Y13, Y12, Y12
	VPSLLVQ Y2, Y4, Y8
	VPSLLVQ Y2, Y10, Y14
	VPAND Y4, Y8, Y8
	VPAND Y10, Y14, Y14
	VPSRLVQ Y2, Y8, Y9
	VPSRLVQ Y2, Y14, Y15
	VPSLLVQ Y3, Y5, Y7
	VPSLLVQ Y3, Y11, Y13
	VPAND Y8, Y7, Y7
	VPAND Y14, Y13, Y13
	VPOR Y7, Y5, Y5
	VPOR Y13, Y11, Y11
	VPSRLVQ Y3, Y6, Y7
	VPSRLVQ Y3, Y12, Y13
	VPAND Y9, Y7, Y7
	VPAND Y15, Y13, Y13
	VPOR Y7, Y6, Y6
	VPOR Y13, Y12, Y12
	VPSLLVQ Y3, Y5, Y7
	VPSLLVQ Y3, Y11, Y13
	VPAND Y8, Y7, Y7
	VPAND Y14, Y13, Y13
	VPOR Y7, Y5, Y5
	VPOR Y13, Y11, Y11
	VPSRLVQ Y3, Y6, Y7
	VPSRLVQ Y3, Y12, Y13
	VPAND Y9, Y7, Y7
	VPAND Y15, Y13, Y13
	VPOR Y7, Y6, Y6
	VPOR Y13, Y12, Y12
	VPSLLVQ Y2, Y5, Y5
	VPSLLVQ Y2, Y11, Y11
	VPSRLVQ Y2, Y6, Y6
	VPSRLVQ Y2, Y12, Y12
	VPOR Y6, Y5, Y5              // p's moves of each lane
	VPOR Y12, Y11, Y11           // o's

	VEXTRACTI128 $1, Y5, X6
	VEXTRACTI128 $1, Y11, X12
	VPOR X6, X5, X5
	VPOR X12, X11, X11
	VPUNPCKLQDQ X11, X5, X6      // low lanes: p's, o's
	VPUNPCKHQDQ X11, X5, X7      // high lanes
	VPOR X7, X6, X6
	VMOVQ X6, CX
	VPEXTRQ $1, X6, DX
	VZEROUPPER
	ORQ BX, AX
	ANDNQ CX, AX, CX             // moves &^ (p | o)
	ANDNQ DX, AX, DX
	MOVQ CX, pm+16(FP)
	MOVQ DX, om+24(FP)
	RET

// func legalMovesBothBest(p, o uint64) (pm, om uint64): legalMovesBothAVX2 or
// legalMovesBothGo, like legalMovesBest.
TEXT ·legalMovesBothBest(SB), NOSPLIT, $0-32
	CMPB ·hasAVX2(SB), $0
	JEQ noavx2
	JMP ·legalMovesBothAVX2(SB)
noavx2:
	JMP ·legalMovesBothGo(SB)
