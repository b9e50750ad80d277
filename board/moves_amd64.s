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
