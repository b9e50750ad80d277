#include "textflag.h"

// APPLY_ARGS loads the arguments of applyAVX512 and applyAVX2: DI the indices, BX the flips,
// SI lineDeltaVec and AX the offset of the placed square's vector in it.
#define APPLY_ARGS \
	MOVQ lines+0(FP), DI; \
	MOVBQZX sq+8(FP), AX; \
	MOVQ f+16(FP), BX; \
	LEAQ ·lineDeltaVec(SB), SI; \
	ANDQ $63, AX; \
	SHLQ $7, AX

// func applyAVX512(lines *uint16, sq Square, f uint64, neg bool)
//
// The index changes of a move as one vector sum: lineDeltaVec[s] holds, in the 54 words of
// the line and extra indices, the weights 3^pos of square s on each index it is on. The
// placed square counts once and the flipped discs twice; the sum is added to the indices (or
// subtracted when neg), modulo 2^16 like the scalar adds of applyGo. The second half of the
// indices (words 32..53) is loaded and stored under a mask, so nothing past them is touched.
TEXT ·applyAVX512(SB), NOSPLIT, $0-25
	APPLY_ARGS
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

// func applyAVX2(lines *uint16, sq Square, f uint64, neg bool)
//
// applyAVX512 for processors with AVX2 only: the same sums in three 32-byte registers (words
// 0..47) and one 16-byte one (words 48..55 of lineDeltaVec, of which the indices hold 48..53).
// The last six indices are read and written as 8 + 4 bytes, so nothing past them is touched.
TEXT ·applyAVX2(SB), NOSPLIT, $0-25
	APPLY_ARGS
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VMOVDQU 64(SI)(AX*1), Y2
	VMOVDQU 96(SI)(AX*1), X3
	TESTQ BX, BX
	JZ sum2
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR X7, X7, X7
loop2:
	TZCNTQ BX, CX
	SHLQ $7, CX
	VPADDW (SI)(CX*1), Y4, Y4
	VPADDW 32(SI)(CX*1), Y5, Y5
	VPADDW 64(SI)(CX*1), Y6, Y6
	VPADDW 96(SI)(CX*1), X7, X7
	BLSRQ BX, BX
	JNZ loop2
	VPADDW Y4, Y4, Y4
	VPADDW Y5, Y5, Y5
	VPADDW Y6, Y6, Y6
	VPADDW X7, X7, X7
	VPADDW Y4, Y0, Y0
	VPADDW Y5, Y1, Y1
	VPADDW Y6, Y2, Y2
	VPADDW X7, X3, X3
sum2:
	VMOVDQU (DI), Y8
	VMOVDQU 32(DI), Y9
	VMOVDQU 64(DI), Y10
	VMOVQ 96(DI), X11
	VPINSRD $2, 104(DI), X11, X11
	CMPB neg+24(FP), $0
	JNE subtract2
	VPADDW Y0, Y8, Y8
	VPADDW Y1, Y9, Y9
	VPADDW Y2, Y10, Y10
	VPADDW X3, X11, X11
	JMP store2
subtract2:
	VPSUBW Y0, Y8, Y8
	VPSUBW Y1, Y9, Y9
	VPSUBW Y2, Y10, Y10
	VPSUBW X3, X11, X11
store2:
	VMOVDQU Y8, (DI)
	VMOVDQU Y9, 32(DI)
	VMOVDQU Y10, 64(DI)
	VMOVQ X11, 96(DI)
	VPEXTRD $2, X11, 104(DI)
	VZEROUPPER
	RET

// func cpuHasBMI1() bool: CPUID leaf 7 reports BMI1 (TZCNT, BLSR), which applyAVX2 uses.
TEXT ·cpuHasBMI1(SB), NOSPLIT, $0-1
	MOVB $0, ret+0(FP)
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT nobmi
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL $3, BX
	JCC nobmi
	MOVB $1, ret+0(FP)
nobmi:
	RET
