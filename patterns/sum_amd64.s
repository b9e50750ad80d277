#include "textflag.h"

// func sumAVX512(w *int16, lines *uint16, black bool) int
//
// The 46 instance indices of Sum in three vectors of 16 dwords: the board's 38 line and 16
// extra indices (54 words from lines on, contiguous in board.Board) are loaded into two
// registers (the second by a masked load that reads nothing past the extra indices),
// permuted into instance order (vecPerm), widened to dwords and turned into table indices:
// vecBase[0] + x for black to move, vecBase[1] - x for white (the colour-exchanged
// configuration). Three gathers read the weights, each as the low half of a dword (so the
// table must have two readable bytes after its last weight: Table), and the dwords are
// sign-extended from their low halves and added up.
TEXT ·sumAVX512(SB), NOSPLIT, $0-32
	MOVQ lines+8(FP), SI
	VMOVDQU64 (SI), Z0             // words 0..31: lines 0..31
	MOVL $0x3fffff, AX
	KMOVD AX, K1
	VMOVDQU16.Z 64(SI), K1, Z1     // words 32..53: lines 32..37, extra 0..15
	LEAQ ·vecPerm(SB), DI
	VMOVDQU64 (DI), Z2
	VPERMI2W Z1, Z0, Z2            // instances 0..31
	VMOVDQU64 64(DI), Z3
	VPERMI2W Z1, Z0, Z3            // instances 32..45 in words 0..13
	VPMOVZXWD Y2, Z4
	VEXTRACTI64X4 $1, Z2, Y5
	VPMOVZXWD Y5, Z5
	VPMOVZXWD Y3, Z6
	LEAQ ·vecBase(SB), DI
	CMPB black+16(FP), $0
	JEQ white
	VPADDD (DI), Z4, Z4
	VPADDD 64(DI), Z5, Z5
	VPADDD 128(DI), Z6, Z6
	JMP gather
white:
	VMOVDQU32 192(DI), Z7
	VPSUBD Z4, Z7, Z4
	VMOVDQU32 256(DI), Z7
	VPSUBD Z5, Z7, Z5
	VMOVDQU32 320(DI), Z7
	VPSUBD Z6, Z7, Z6
gather:
	MOVQ w+0(FP), AX
	MOVL $0xffff, BX
	KMOVW BX, K2
	KMOVW BX, K3
	MOVL $0x3fff, CX
	KMOVW CX, K4
	VPXORD Z9, Z9, Z9
	VPGATHERDD (AX)(Z4*2), K2, Z7
	VPGATHERDD (AX)(Z5*2), K3, Z8
	VPGATHERDD (AX)(Z6*2), K4, Z9
	VPSLLD $16, Z7, Z7
	VPSLLD $16, Z8, Z8
	VPSLLD $16, Z9, Z9
	VPSRAD $16, Z7, Z7
	VPSRAD $16, Z8, Z8
	VPSRAD $16, Z9, Z9
	VPADDD Z8, Z7, Z7
	VPADDD Z9, Z7, Z7
	VEXTRACTI64X4 $1, Z7, Y8
	VPADDD Y8, Y7, Y7
	VEXTRACTI128 $1, Y7, X8
	VPADDD X8, X7, X7
	VPSHUFD $0x4e, X7, X8
	VPADDD X8, X7, X7
	VPSHUFD $0xb1, X7, X8
	VPADDD X8, X7, X7
	VMOVD X7, AX
	MOVLQSX AX, AX
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func cpuHasAVX512BW() bool: the processor has AVX-512 F and BW, and the operating system
// saves their state (XGETBV XCR0 bits 1-2 and 5-7).
TEXT ·cpuHasAVX512BW(SB), NOSPLIT, $0-1
	MOVB $0, ret+0(FP)
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x08000000, CX // OSXSAVE
	JEQ no
	XORL CX, CX
	XGETBV
	ANDL $0xe6, AX
	CMPL AX, $0xe6
	JNE no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	ANDL $0x40010000, BX // AVX512F (16), AVX512BW (30)
	CMPL BX, $0x40010000
	JNE no
	MOVB $1, ret+0(FP)
no:
	RET
