#!/usr/bin/python3
"""Writes the ONNX fixtures of tests/test_onnx.c into DIR through Debian's
python3-onnx (the ONNX library's own helpers and serializer).  Every size,
lifetime and bound the test expects is worked out there, by hand."""
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto as T

out = sys.argv[1]


def save(name, nodes, inputs, outputs, inits=(), opset=13, ir=7):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)])
    m.ir_version = ir
    onnx.save(m, f'{out}/{name}.onnx')


vi = helper.make_tensor_value_info
# chain: x[1,8] -> Relu r -> MatMul(W[8,16]) m -> Sigmoid y
save('chain', [helper.make_node('Relu', ['x'], ['r'], name='relu'),
               helper.make_node('MatMul', ['r', 'W'], ['m'], name='matmul'),
               helper.make_node('Sigmoid', ['m'], ['y'], name='sigmoid')],
     [vi('x', T.FLOAT, [1, 8])], [vi('y', T.FLOAT, [1, 16])],
     [numpy_helper.from_array(np.ones((8, 16), np.float32), 'W')])
# branch: x[2,8] -> Relu a, Tanh b -> Add y
save('branch', [helper.make_node('Relu', ['x'], ['a'], name='relu'),
                helper.make_node('Tanh', ['x'], ['b'], name='tanh'),
                helper.make_node('Add', ['a', 'b'], ['y'], name='add')],
     [vi('x', T.FLOAT, [2, 8])], [vi('y', T.FLOAT, [2, 8])])
# initializer input: W is a graph input with an initializer (IR 3 style)
save('init_input', [helper.make_node('Add', ['x', 'W'], ['y'], name='add')],
     [vi('x', T.FLOAT, [4]), vi('W', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])],
     [numpy_helper.from_array(np.ones(4, np.float32), 'W')], opset=9, ir=3)
# symbolic batch: x[N,3] -> Relu r -> Reshape(r, Concat(Unsqueeze(Gather(Shape(r), 0)), [1, 3])) y[N,1,3]
save('symbolic', [helper.make_node('Relu', ['x'], ['r'], name='relu'),
                  helper.make_node('Shape', ['r'], ['s'], name='shape'),
                  helper.make_node('Gather', ['s', 'zero'], ['n'], name='gather', axis=0),
                  helper.make_node('Unsqueeze', ['n'], ['u'], name='unsqueeze', axes=[0]),
                  helper.make_node('Concat', ['u', 'tail'], ['target'], name='concat', axis=0),
                  helper.make_node('Reshape', ['r', 'target'], ['y'], name='reshape')],
     [vi('x', T.FLOAT, ['N', 3])], [vi('y', T.FLOAT, None)],
     [numpy_helper.from_array(np.array(0, np.int64), 'zero'),
      numpy_helper.from_array(np.array([1, 3], np.int64), 'tail')], opset=11)
# If: then = Neg(Relu(x)) (two values of 16 B), else = Sigmoid(x) (one)
then_g = helper.make_graph([helper.make_node('Relu', ['x'], ['t1'], name='then_relu'),
                            helper.make_node('Neg', ['t1'], ['t2'], name='then_neg')],
                           'then', [], [vi('t2', T.FLOAT, [4])])
else_g = helper.make_graph([helper.make_node('Sigmoid', ['x'], ['e1'], name='else_sigmoid')],
                           'else', [], [vi('e1', T.FLOAT, [4])])
ifn = helper.make_node('If', ['cond'], ['y'], name='if', then_branch=then_g, else_branch=else_g)
save('if', [ifn], [vi('cond', T.BOOL, []), vi('x', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])], opset=13)
save('if_const', [ifn], [vi('x', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])],
     [numpy_helper.from_array(np.array(False), 'cond')], opset=13)
# a string value (refused by name) and a Loop without outputs
save('string', [helper.make_node('Identity', ['s'], ['t'], name='ident')],
     [vi('s', T.STRING, [2])], [vi('t', T.STRING, [2])])
body = helper.make_graph([helper.make_node('Identity', ['c'], ['c2'], name='body_id')], 'body',
                         [vi('i', T.INT64, []), vi('c', T.BOOL, [])], [vi('c2', T.BOOL, [])])
save('loop', [helper.make_node('Loop', ['', 'cond'], [], name='the_loop', body=body),
              helper.make_node('Relu', ['x'], ['y'], name='relu')],
     [vi('cond', T.BOOL, []), vi('x', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])])
# If whose branches give outputs of different static shapes: then = Relu(x)
# [4], else = Concat(x, x) [8]; inference leaves y's length open
then_g = helper.make_graph([helper.make_node('Relu', ['x'], ['t1'], name='then_relu')],
                           'then', [], [vi('t1', T.FLOAT, [4])])
else_g = helper.make_graph([helper.make_node('Concat', ['x', 'x'], ['e1'], name='else_concat', axis=0)],
                           'else', [], [vi('e1', T.FLOAT, [8])])
save('if_shapes', [helper.make_node('If', ['cond'], ['y'], name='if', then_branch=then_g,
                                    else_branch=else_g)],
     [vi('cond', T.BOOL, []), vi('x', T.FLOAT, [4])], [vi('y', T.FLOAT, None)], opset=13)
# Loop carrying v [4] through a body with a 64-byte temporary:
# h = MatMul(v, W1[4,16]), v_out = MatMul(h, W2[16,4]); then Relu
body = helper.make_graph([helper.make_node('Identity', ['c'], ['c_out'], name='body_cond'),
                          helper.make_node('MatMul', ['v', 'W1'], ['h'], name='body_up'),
                          helper.make_node('MatMul', ['h', 'W2'], ['v_out'], name='body_down')],
                         'body', [vi('i', T.INT64, []), vi('c', T.BOOL, []), vi('v', T.FLOAT, [4])],
                         [vi('c_out', T.BOOL, []), vi('v_out', T.FLOAT, [4])])
save('loop_carried', [helper.make_node('Loop', ['M', 'cond', 'v0'], ['v_final'], name='loop', body=body),
                      helper.make_node('Relu', ['v_final'], ['y'], name='relu')],
     [vi('M', T.INT64, []), vi('cond', T.BOOL, []), vi('v0', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])],
     [numpy_helper.from_array(np.ones((4, 16), np.float32), 'W1'),
      numpy_helper.from_array(np.ones((16, 4), np.float32), 'W2')])
# an If inside a Loop body, its branches reading body values h and v
then_g = helper.make_graph([helper.make_node('Neg', ['h'], ['t'], name='then_neg')],
                           'then', [], [vi('t', T.FLOAT, [4])])
else_g = helper.make_graph([helper.make_node('Abs', ['v'], ['e'], name='else_abs')],
                           'else', [], [vi('e', T.FLOAT, [4])])
body = helper.make_graph([helper.make_node('Relu', ['v'], ['h'], name='body_relu'),
                          helper.make_node('If', ['c'], ['r'], name='body_if', then_branch=then_g,
                                           else_branch=else_g),
                          helper.make_node('Identity', ['c'], ['c_out'], name='body_cond'),
                          helper.make_node('Identity', ['r'], ['v_out'], name='body_out')],
                         'body', [vi('i', T.INT64, []), vi('c', T.BOOL, []), vi('v', T.FLOAT, [4])],
                         [vi('c_out', T.BOOL, []), vi('v_out', T.FLOAT, [4])])
save('loop_if', [helper.make_node('Loop', ['M', 'cond', 'v0'], ['v_final'], name='loop', body=body),
                 helper.make_node('Relu', ['v_final'], ['y'], name='relu')],
     [vi('M', T.INT64, []), vi('cond', T.BOOL, []), vi('v0', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])])
# an If branch reading a name nothing defines: malformed, refused by name
then_g = helper.make_graph([helper.make_node('Relu', ['nowhere'], ['t1'], name='then_relu')],
                           'then', [], [vi('t1', T.FLOAT, [4])])
else_g = helper.make_graph([helper.make_node('Relu', ['x'], ['e1'], name='else_relu')],
                           'else', [], [vi('e1', T.FLOAT, [4])])
save('if_undefined', [helper.make_node('If', ['cond'], ['y'], name='if', then_branch=then_g,
                                       else_branch=else_g)],
     [vi('cond', T.BOOL, []), vi('x', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])], opset=13)
# Scan over x [3,2] with state [2]: t = Mul(sum_in, next), sum_out = Add(t, next),
# scan_out = Identity(sum_out)
body = helper.make_graph([helper.make_node('Mul', ['sum_in', 'next'], ['t'], name='body_mul'),
                          helper.make_node('Add', ['t', 'next'], ['sum_out'], name='body_add'),
                          helper.make_node('Identity', ['sum_out'], ['scan_out'], name='body_id')],
                         'body', [vi('sum_in', T.FLOAT, [2]), vi('next', T.FLOAT, [2])],
                         [vi('sum_out', T.FLOAT, [2]), vi('scan_out', T.FLOAT, [2])])
save('scan', [helper.make_node('Scan', ['initial', 'x'], ['y', 'z'], name='scan', body=body,
                               num_scan_inputs=1)],
     [vi('initial', T.FLOAT, [2]), vi('x', T.FLOAT, [3, 2])],
     [vi('y', T.FLOAT, [2]), vi('z', T.FLOAT, [3, 2])], opset=11)
# symbolic dimensions, several inputs: x['D.10','D.1'] and z['D.1', K]; the
# missing names are D.10, D.1, K (once each, in order of first use)
save('symbolic_many', [helper.make_node('Relu', ['x'], ['rx'], name='relu_x'),
                       helper.make_node('Relu', ['z'], ['rz'], name='relu_z')],
     [vi('x', T.FLOAT, ['D.10', 'D.1']), vi('z', T.FLOAT, ['D.1', 'K'])],
     [vi('rx', T.FLOAT, None), vi('rz', T.FLOAT, None)])
# dimensions without a name (issue 32): 'input' is [?,3] (an empty dim, as
# some exporters write), 'x' is [N,?,4]; only --dim INPUT:AXIS=VALUE gives
# the empty ones
save('nameless', [helper.make_node('Relu', ['input'], ['y'], name='relu')],
     [vi('input', T.FLOAT, [None, 3])], [vi('y', T.FLOAT, None)])
save('nameless_mixed', [helper.make_node('Relu', ['x'], ['y'], name='relu')],
     [vi('x', T.FLOAT, ['N', None, 4])], [vi('y', T.FLOAT, None)])
# two models sharing the symbolic name W, to be given different values
# (a dims file): img[W,4] f32 -> Relu r -> Neg y
for stem in ('wide_a', 'wide_b'):
    save(stem, [helper.make_node('Relu', ['img'], ['r'], name='relu'),
                helper.make_node('Neg', ['r'], ['y'], name='neg')],
         [vi('img', T.FLOAT, ['W', 4])], [vi('y', T.FLOAT, None)])
# an operator writing a constant: Relu's output is the initializer W
save('const_write', [helper.make_node('Relu', ['x'], ['W'], name='relu'),
                     helper.make_node('Add', ['x', 'W'], ['y'], name='add')],
     [vi('x', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])],
     [numpy_helper.from_array(np.ones(4, np.float32), 'W')])
# symbolic and malformed: a node reads 'nowhere' (no value has that name)
save('symbolic_undefined', [helper.make_node('Add', ['x', 'nowhere'], ['y'], name='add')],
     [vi('x', T.FLOAT, ['N', 3])], [vi('y', T.FLOAT, None)])
# symbolic and out of order: 'b' is read by the first node, written by the second
save('symbolic_order', [helper.make_node('Relu', ['b'], ['y'], name='first'),
                        helper.make_node('Neg', ['x'], ['b'], name='second')],
     [vi('x', T.FLOAT, ['N', 3])], [vi('y', T.FLOAT, None)])
