#include "textflag.h"

// func applyAVX512(lines *uint16, sq Square, f uint64, neg bool)
//
// The index changes of a move as one vector sum: lineDeltaVec[s] holds, in the 54 words of
// the line and extra indices, the weights 3^pos of square s on each index it is on. The
// placed square counts once and the flipped discs twice; the sum is added to the indices (or
// subtracted when neg), modulo 2^16 like the scalar adds of applyGo. The second half of the
// indices (words 32..53) is loaded and stored under a mask, so nothing past them is touched.
TEXT ·applyAVX512(SB), NOSPLIT, $0-25
	MOVQ lines+0(FP), DI
	MOVBQZX sq+8(FP), AX
	MOVQ f+16(FP), BX
	LEAQ ·lineDeltaVec(SB), SI
	ANDQ $63, AX
	SHLQ $7, AX
	VMOVDQU64 (SI)(AX*1), Z2
	VMOVDQU64 64(SI)(AX*1), Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	TESTQ BX, BX
	JZ sum
loop:
	TZCNTQ BX, CX
	SHLQ $7, CX
	VPADDW (SI)(CX*1), Z4, Z4
	VPADDW 64(SI)(CX*1), Z5, Z5
	BLSRQ BX, BX
	JNZ loop
	VPADDW Z4, Z4, Z4
	VPADDW Z5, Z5, Z5
	VPADDW Z4, Z2, Z2
	VPADDW Z5, Z3, Z3
sum:
	MOVL $0x3fffff, AX
	KMOVD AX, K1
	VMOVDQU64 (DI), Z0
	VMOVDQU16.Z 64(DI), K1, Z1
	CMPB neg+24(FP), $0
	JNE subtract
	VPADDW Z2, Z0, Z0
	VPADDW Z3, Z1, Z1
	JMP store
subtract:
	VPSUBW Z2, Z0, Z0
	VPSUBW Z3, Z1, Z1
store:
	VMOVDQU64 Z0, (DI)
	VMOVDQU16 Z1, K1, 64(DI)
	VZEROUPPER
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
	ANDL $0x40010008, BX // AVX512F (16), AVX512BW (30), BMI1 (3)
	CMPL BX, $0x40010008
	JNE no
	MOVB $1, ret+0(FP)
no:
	RET
