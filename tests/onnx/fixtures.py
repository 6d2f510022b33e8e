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
# a string value and a Loop: refused by name
save('string', [helper.make_node('Identity', ['s'], ['t'], name='ident')],
     [vi('s', T.STRING, [2])], [vi('t', T.STRING, [2])])
body = helper.make_graph([helper.make_node('Identity', ['c'], ['c2'], name='body_id')], 'body',
                         [vi('i', T.INT64, []), vi('c', T.BOOL, [])], [vi('c2', T.BOOL, [])])
save('loop', [helper.make_node('Loop', ['', 'cond'], [], name='the_loop', body=body),
              helper.make_node('Relu', ['x'], ['y'], name='relu')],
     [vi('cond', T.BOOL, []), vi('x', T.FLOAT, [4])], [vi('y', T.FLOAT, [4])])
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
